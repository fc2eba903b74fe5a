import VoiceRT

/// Which configuration changes a running engine can take as messages, and those messages.
///
/// Live: input and output gain, the leveller's target, maximum gain and speed, the residual echo
/// post-filter's strengths (tail model, coherence, coherence with a clipping speaker) and the
/// residual echo gate (with echo cancellation; without it,
/// only remembered), every parameter of the effect units (those in the chain get messages; the
/// others are only remembered), the monitor's levels and pan, the ducking depth, the feedback
/// guard switch. (The backing track's level is the session's, set on the track by the host.)
/// Everything else (chain order, frame, canceller tail, delay handling, other speexdsp settings,
/// the high-pass, monitor on/off and source, ducking times) shapes what the engine allocates or
/// its latency, and needs a new engine: a restart.
///
/// - Realtime: never (main thread; builds arrays).
public struct LiveUpdate: Sendable {
    /// Messages that take an engine built from the old configuration to the new one.
    public var messages: [ControlMessage] = []
    /// The old configuration with every live change of the new one applied: what the engine
    /// runs once the messages are applied (and what a rebuilt engine must be built from).
    public var reached: EngineConfiguration
    /// True when `reached` still differs from the new configuration (some change needs a restart).
    public var needsRestart: Bool
}

extension EngineConfiguration {
    /// The live part of the change from `self` (what the engine runs) to `new`: one message per
    /// changed parameter, addressed by name (`ControlNames`), never by position. The engine's own
    /// parameters are those `EngineControl.all` declares; the chain's, its units' descriptors.
    public func liveUpdate(to new: EngineConfiguration) -> LiveUpdate {
        var reached = self
        var messages: [ControlMessage] = []
        // A restart's key stays unreached (so `needsRestart`); the monitor's levels go below.
        for control in EngineControl.all where control.route != nil && !control.needsRestart {
            guard let field = control.field, self[keyPath: field] != new[keyPath: field] else { continue }
            reached[keyPath: field] = new[keyPath: field]
            guard echo.echoCancellation || !control.needsCanceller else { continue }  // only remembered
            messages.append(control.message(for: new))
        }
        for kind in EffectKind.allCases where effectValues[kind.index] != new.effectValues[kind.index] {
            // A parameter whose declaration needs a restart stays unreached.
            for (i, p) in kind.parameters.enumerated() where !p.needsRestart {
                reached.effectValues[kind.index][i] = new.effectValues[kind.index][i]
            }
            // Units outside the chain have no parameters in the engine: only remembered.
            guard effectOrder.contains(kind) else { continue }
            for (i, p) in kind.parameters.enumerated()
            where !p.needsRestart && new.effectValues[kind.index][i] != effectValues[kind.index][i] {
                messages.append(ControlMessage(ControlNames.effectIDs[kind.index][i], new.effectValues[kind.index][i]))
            }
        }
        messages += pluginMessages(to: new, reached: &reached)
        messages += monitorMessages(to: new, reached: &reached)
        if monitorFeedbackGuard != new.monitorFeedbackGuard {
            reached.monitorFeedbackGuard = new.monitorFeedbackGuard
            messages.append(ControlMessage(EngineControl.feedbackGuard.id, new.monitorFeedbackGuard ? 1 : 0))
        }
        return LiveUpdate(messages: messages, reached: reached, needsRestart: reached != new)
    }

    /// Control values of plugin units in the chain whose plugin and state stay the same (a new
    /// URI or state needs a new unit: a rebuilt chain). A control the new settings no longer
    /// list keeps its running value.
    private func pluginMessages(to new: EngineConfiguration, reached: inout EngineConfiguration) -> [ControlMessage] {
        var messages: [ControlMessage] = []
        for case .plugin(let name) in chain {
            guard let old = plugins[name], let wanted = new.plugins[name], old.uri == wanted.uri,
                old.state == wanted.state
            else { continue }
            for (symbol, value) in wanted.values.sorted(by: { $0.key < $1.key }) where old.values[symbol] != value {
                messages.append(ControlMessage(ControlNames.plugin(name, symbol), value))
            }
            reached.plugins[name]?.values.merge(wanted.values) { $1 }
        }
        // Plugin sections outside the chain have no unit in the engine: only remembered.
        for name in Set(plugins.keys).union(new.plugins.keys) where !chain.contains(.plugin(name)) {
            reached.plugins[name] = new.plugins[name]
        }
        return messages
    }

    /// True when `new` runs a different chain: other units, order, plugins or plugin states.
    /// Control values alone are live changes. - Realtime: never.
    public func chainDiffers(from new: EngineConfiguration) -> Bool {
        guard chain == new.chain else { return true }
        return chain.contains {
            guard case .plugin(let name) = $0 else { return false }
            return plugins[name]?.uri != new.plugins[name]?.uri || plugins[name]?.state != new.plugins[name]?.state
        }
    }

    /// The monitor's four linear gains when a level or the pan changed (pan laws need libm, so
    /// they are worked out here, off the process thread).
    private func monitorMessages(to new: EngineConfiguration, reached: inout EngineConfiguration) -> [ControlMessage] {
        let fields = EngineControl.all.filter { $0.sent == .monitorMix }.compactMap(\.field)
        guard fields.contains(where: { self[keyPath: $0] != new[keyPath: $0] }) else { return [] }
        for field in fields { reached[keyPath: field] = new[keyPath: field] }
        return new.monitorMixMessages
    }

    /// The monitor's four linear gains for this configuration's levels and pan.
    var monitorMixMessages: [ControlMessage] {
        let mix = MonitorMix(self)
        return zip(EngineControl.monitorGains, [mix.voiceLeft, mix.voiceRight, mix.far, mix.master]).map {
            ControlMessage($0.id, $1)
        }
    }

    /// Messages that re-arm the feedback guard (unmute the monitor).
    public static var rearmFeedbackGuard: [ControlMessage] { [ControlMessage(EngineControl.unmuteMonitor.id, 1)] }
}
