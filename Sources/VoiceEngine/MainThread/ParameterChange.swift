import VoiceRT

/// One live parameter, addressed as the engine takes it: an engine control by its declaration,
/// a built-in unit's parameter by the unit and its position in the unit's descriptors, or a
/// plugin unit's control port by the unit's name and the port's symbol.
///
/// - Realtime: never (main thread; a surface resolves a key to one of these once).
public enum LiveParameter: Sendable {
    case engine(EngineControl)
    case effect(EffectKind, index: Int)
    case plugin(unit: String, symbol: String)
}

/// What one parameter change sends: its messages (one; the monitor's four gains for a monitor
/// level or the pan; none when it is only remembered), or that it needs a restart.
///
/// - Realtime: never.
public struct ParameterChange: Sendable, Equatable {
    public var messages: [ControlMessage] = []
    /// True when the parameter's declaration says a running engine cannot take it; nothing was
    /// changed.
    public var needsRestart = false
}

extension EngineConfiguration {
    /// Sets `parameter` to `value` in this configuration (the main thread's model of what the
    /// engine runs) and returns the messages that take a running engine there: no other field
    /// is compared or sent. A parameter whose declaration needs a restart is left as it is.
    /// A parameter of a unit outside the chain, or of the canceller while echo cancellation is
    /// off, is only remembered (no message). `value` is already checked against the key's range.
    ///
    /// - Realtime: never; main thread.
    public mutating func set(_ parameter: LiveParameter, to value: Float) -> ParameterChange {
        switch parameter {
        case .engine(let control):
            guard let field = control.field, !control.needsRestart else { return ParameterChange(needsRestart: true) }
            self[keyPath: field] = value
            if control.sent == .monitorMix { return ParameterChange(messages: monitorMixMessages) }
            guard control.route != nil, echo.echoCancellation || !control.needsCanceller else {
                return ParameterChange()
            }
            return ParameterChange(messages: [control.message(for: self)])
        case .effect(let kind, let index):
            guard !kind.parameters[index].needsRestart else { return ParameterChange(needsRestart: true) }
            effectValues[kind.index][index] = value
            guard effectOrder.contains(kind) else { return ParameterChange() }
            return ParameterChange(messages: [ControlMessage(ControlNames.effectIDs[kind.index][index], value)])
        case .plugin(let unit, let symbol):
            guard plugins[unit] != nil else { return ParameterChange() }
            plugins[unit]?.values[symbol] = value
            guard chain.contains(.plugin(unit)) else { return ParameterChange() }
            return ParameterChange(messages: [ControlMessage(ControlNames.plugin(unit, symbol), value)])
        }
    }
}
