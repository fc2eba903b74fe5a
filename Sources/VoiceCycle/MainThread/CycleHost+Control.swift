import VoiceEngine
import VoiceRT

/// What a live change did: how many messages went to the process thread, how many did not fit,
/// and whether part of the change needs a restart.
public struct LiveChangeResult: Sendable {
    /// Messages queued for the process thread.
    public var queued: Int
    /// Messages the ring had no room for (not applied; send the change again).
    public var dropped: Int
    /// The configuration the engine now runs (the live part of the change applied).
    public var reached: EngineConfiguration
    /// True when some of the change shapes the engine and waits for a restart.
    public var needsRestart: Bool
}

/// The engine's state as the session shows it.
public struct CycleStatus: Sendable {
    public var health: HealthFigures
    /// Each chain unit's name and meters, in chain order.
    public var units: [(unit: String, reading: UnitMeterReading)] = []
    public var sampleRate: Int
    /// Frames per cycle the engine is built for.
    public var blockSize: Int
    /// Samples voice_out lags mic_in.
    public var latency: Int
    /// Cycles voice_out was silent because no engine fitted (a block-size change in progress).
    public var silentCycles: Int
    /// Why the last block-size change could not be followed, if it could not.
    public var problem: String?
    /// voice_out is muted (`setVoiceMuted`).
    public var voiceMuted: Bool
    /// The talker is talking into the mute now, and how many times they started to.
    public var talkingWhileMuted: Bool
    public var mutedTalkEvents: Int
    /// `health.voiceActive` comes from a detector (`VoiceEngine.detectsVoice`); when false it
    /// means nothing and surfaces do not show it.
    public var detectsVoice = true
}

extension CycleHost {
    /// The configuration the engine runs, live changes included. - Realtime: never.
    public var liveConfiguration: EngineConfiguration { engine.withLock { $0.configuration } }

    /// The live configuration with each running plugin unit's state as it is now, so a saved
    /// preset brings a tuned plugin back exactly. - Realtime: never; main thread.
    public var configurationToSave: EngineConfiguration {
        engine.withLock { owned in
            var configuration = owned.configuration
            for (name, state) in owned.engine.pluginStates() { configuration.plugins[name]?.state = state }
            return configuration
        }
    }

    /// Applies the live part of `new` to the running engine: typed messages to the process
    /// thread, which glides to the new values; the rest is left for a restart. A block-size
    /// change later builds its engine from the configuration reached. - Realtime: never; main thread.
    public func applyLive(_ new: EngineConfiguration) -> LiveChangeResult {
        engine.withLock { owned in
            let update = owned.configuration.liveUpdate(to: new)
            let queued = owned.engine.post(update.messages)
            // Only what was queued counts as reached; a dropped message leaves its value unchanged
            // here too, so sending the change again sends it again.
            var reached = owned.configuration
            if queued == update.messages.count { reached = update.reached }
            owned.configuration = reached
            return LiveChangeResult(
                queued: queued, dropped: update.messages.count - queued, reached: reached,
                needsRestart: update.needsRestart)
        }
    }

    /// Sets one parameter live: the running configuration takes the value and the engine gets
    /// that parameter's message alone (no other field is compared). A parameter whose
    /// declaration needs a restart is refused, unchanged. - Realtime: never; main thread.
    public func setLive(_ parameter: LiveParameter, to value: Float) -> LiveChangeResult {
        engine.withLock { owned in
            var reached = owned.configuration
            let change = reached.set(parameter, to: value)
            let queued = change.needsRestart ? 0 : owned.engine.post(change.messages)
            // As in `applyLive`: a dropped message leaves the value unchanged, so sending it
            // again sends it again.
            if !change.needsRestart, queued == change.messages.count { owned.configuration = reached }
            return LiveChangeResult(
                queued: queued, dropped: change.messages.count - queued, reached: owned.configuration,
                needsRestart: change.needsRestart)
        }
    }

    /// Unmutes the monitor after the feedback guard muted it, and lets the guard watch again.
    /// - Realtime: never; main thread.
    public func rearmFeedbackGuard() {
        engine.withLock { _ = $0.engine.post(EngineConfiguration.rearmFeedbackGuard) }
    }

    /// Posts a bulk-delay seed (samples from the far end leaving to its echo arriving, e.g. the
    /// playback + capture latency a driver reports) when it differs from the last one posted to
    /// this engine. Returns true when posted. - Realtime: never; main thread.
    public func seedReferenceDelay(samples delay: Int) -> Bool {
        engine.withLock { owned in
            guard owned.configuration.echoCancellation, owned.configuration.delayMode == .auto else { return false }
            guard owned.postedSeed != delay || owned.seededEngine != ObjectIdentifier(owned.engine) else {
                return false
            }
            owned.postedSeed = delay
            owned.seededEngine = ObjectIdentifier(owned.engine)
            owned.engine.seedReferenceDelay(samples: delay)
            return true
        }
    }

    /// The engine's figures now. - Realtime: never; any thread but the process thread.
    public func status() -> CycleStatus {
        let (health, units, blockSize, latency, detectsVoice) = engine.withLock {
            (
                $0.engine.health(), $0.engine.unitMeters(), $0.engine.plan.blockSize, $0.engine.latency,
                $0.engine.detectsVoice
            )
        }
        let c = cycle
        return CycleStatus(
            health: health, units: units, sampleRate: sampleRate, blockSize: blockSize, latency: latency,
            silentCycles: c.pointee.silentCycles.load(ordering: .relaxed),
            problem: blockSizeProblem.withLock { $0 }, voiceMuted: c.pointee.muteRequested.load(ordering: .relaxed),
            talkingWhileMuted: c.pointee.mutedTalking.load(ordering: .relaxed),
            mutedTalkEvents: c.pointee.mutedTalkEvents.load(ordering: .relaxed), detectsVoice: detectsVoice)
    }

    /// Mutes `voice_out` (gliding to silence in 20 ms, also in the voice recordings) or opens it
    /// again. While muted, the engine's voice decision raises "talking while muted" events
    /// (`status()`). - Realtime: never needed; any thread.
    public func setVoiceMuted(_ muted: Bool) {
        cycle.pointee.muteRequested.store(muted, ordering: .relaxed)
    }

    /// Posts messages straight to the running engine (tests, and surfaces that already hold
    /// typed messages). Returns how many were queued. - Realtime: never; main thread.
    @discardableResult
    public func post(_ messages: [ControlMessage]) -> Int {
        engine.withLock { $0.engine.post(messages) }
    }
}
