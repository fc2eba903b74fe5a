import VoiceEngine

extension CycleHost {
    /// Warnings about the running chain's plugin units (not hard-real-time capable), for the user.
    /// - Realtime: never.
    public var engineNotes: [String] { engine.withLock { $0.engine.notes } }

    /// Builds an engine running `new`'s chain (other units, order, LV2 plugins or their saved
    /// states) here, off the process thread, and swaps it in the way a block-size change does;
    /// the old engine, its plugins included, is freed here too. The rest of the running
    /// configuration is kept (live changes included); a rebuilt engine starts its adaptive state
    /// (echo canceller, delay estimate) afresh.
    ///
    /// It runs on the engine builder's queue, after any engine a buffer-size change queued: built
    /// beside one, the later swap would undo the other (the new chain lost, or an engine for the
    /// old buffer size running the new cycles).
    ///
    /// - Realtime: never; main thread (waits for the engine builder's queue).
    /// - Throws: `EngineError` (a plugin that cannot be made); the running engine stays.
    public func rebuildChain(for new: EngineConfiguration) throws(EngineError) {
        let result = engineBuilder.sync { () -> Result<Void, EngineError> in
            do throws(EngineError) {
                return .success(try buildAndSwapChain(for: new))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// `rebuildChain`'s work. - Realtime: never; the engine builder's queue.
    private func buildAndSwapChain(for new: EngineConfiguration) throws(EngineError) {
        var wanted = engine.withLock { $0.configuration }
        wanted.chain = new.chain
        wanted.plugins = new.plugins
        wanted.effectValues = new.effectValues
        let fresh = try VoiceEngine(
            configuration: wanted, sampleRate: sampleRate, blockSize: plan.blockSize,
            referenceChannels: referenceChannels, pluginHost: pluginHost)
        try engine.withLock { (current) throws(EngineError) in
            guard exchangeToken(cycle.pointee.engineSlot, from: current.engine.state, to: fresh.state) else {
                throw EngineError.plugin(PluginError("the process thread kept the engine; the chain was not changed"))
            }
            current.engine = fresh
            current.configuration = wanted
            cycle.pointee.voiceLatency.store(fresh.latency, ordering: .relaxed)
            cycle.pointee.latencyChanged.store(true, ordering: .releasing)
        }
    }

    /// Follows a change of the chain's latency (an LV2 plugin's latency port moved): stores it
    /// for the taps and flags it for the driver, which tells its server (JACK's latency
    /// callback). Returns the new latency when it changed.
    ///
    /// - Realtime: never; main thread (reads the latency each plugin published after its last
    ///   run on the process thread: at worst one cycle late).
    @discardableResult
    public func refreshLatency() -> Int? {
        let now = engine.withLock { $0.engine.latency }
        guard cycle.pointee.voiceLatency.load(ordering: .relaxed) != now else { return nil }
        cycle.pointee.voiceLatency.store(now, ordering: .relaxed)
        cycle.pointee.latencyChanged.store(true, ordering: .releasing)
        return now
    }
}
