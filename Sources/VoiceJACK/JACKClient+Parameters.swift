import VoiceEngine

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

extension JACKClient {
    /// The configuration the engine runs, live changes included. - Realtime: never.
    public var liveConfiguration: EngineConfiguration { engine.withLock { $0.configuration } }

    /// Applies the live part of `new` to the running engine: messages to the process thread,
    /// which glides to the new values; the rest is left for a restart. A buffer-size change later
    /// builds its engine from the configuration reached. - Realtime: never; main thread.
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

    /// Unmutes the monitor after the feedback guard muted it, and lets the guard watch again.
    /// - Realtime: never; main thread.
    public func rearmFeedbackGuard() {
        engine.withLock { _ = $0.engine.post(EngineConfiguration.rearmFeedbackGuard) }
    }
}
