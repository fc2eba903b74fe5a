import VoiceEngine

extension CycleHost {
    /// The driver's cycles are `blockSize` long from now on: returns at once and lets the engine
    /// builder's thread build and swap in an engine for it (`rebuildEngine`). Until the swap the
    /// old engine renders the new cycles (a larger one in pieces of its block).
    ///
    /// Why not build here: PipeWire's JACK holds its process lock while the client's buffer-size
    /// callback runs and runs no process callback meanwhile, so every millisecond spent here
    /// is a millisecond of the take never rendered (docs/measurements.md, "PipeWire quantum
    /// changes", has what a slow callback costs). What it still skips is one cycle at each new
    /// quantum, before it calls this at all.
    ///
    /// - Realtime: never. Called on the driver's notification thread (JACK's buffer-size
    ///   callback).
    public func blockSizeChanged(to blockSize: Int) {
        requestedBlockSize.store(blockSize, ordering: .relaxed)
        engineBuilder.async { [self] in rebuildEngine(for: requestedBlockSize.load(ordering: .relaxed)) }
    }

    /// Builds an engine for `blockSize` and swaps it in, freeing the old one here (never on the
    /// process thread). Returns when the swap is done (or refused: `blockSizeProblem`).
    ///
    /// - Realtime: never. The engine builder's thread, or the main thread while no driver runs.
    public func rebuildEngine(for blockSize: Int) {
        // A build the driver queued earlier follows this size too.
        requestedBlockSize.store(blockSize, ordering: .relaxed)
        if engine.withLock({ $0.engine.plan.blockSize == blockSize }) { return }
        installFreshEngine(blockSize: blockSize)
    }

    /// The driver starts (true) or stops freewheeling. With `freshEngineOnFreewheel`, a fresh
    /// engine is swapped in before the first freewheel cycle, so a freewheel render starts from
    /// the state `voicerack process` starts from and gives the same samples, whatever ran before.
    ///
    /// - Realtime: never. JACK2 calls it on its notification thread and waits for it before it
    ///   starts the freewheel cycles (so no cycle runs meanwhile).
    public func freewheelChanged(_ freewheeling: Bool) {
        guard freewheeling, freshEngineOnFreewheel.load(ordering: .relaxed) else { return }
        // On the builder's queue, after any build queued before, so neither undoes the other.
        engineBuilder.sync { installFreshEngine(blockSize: engine.withLock { $0.engine.plan.blockSize }) }
    }

    /// Builds an engine for `blockSize` from the running configuration (live changes and the
    /// delay seed included) and swaps it in, freeing the old one here. Callers run it on the
    /// engine builder's queue (or before any driver runs), so builds never overlap.
    func installFreshEngine(blockSize: Int) {
        let built = engine.withLock { $0.configuration }
        let fresh: VoiceEngine
        do {
            fresh = try VoiceEngine(
                configuration: built, sampleRate: sampleRate, blockSize: blockSize,
                referenceChannels: referenceChannels,
                pluginHost: pluginHost)
        } catch {
            blockSizeProblem.withLock { $0 = "buffer size \(blockSize): \(error.description); voice_out is silent" }
            return
        }
        engine.withLock { current in
            guard exchangeToken(cycle.pointee.engineSlot, from: current.engine.state, to: fresh.state) else {
                blockSizeProblem.withLock {
                    $0 = "buffer size \(blockSize): the process thread kept the engine; voice_out is silent"
                }
                return
            }
            // Live changes made while the engine was built reach it as messages.
            fresh.post(built.liveUpdate(to: current.configuration).messages)
            if current.postedSeed >= 0 {
                fresh.seedReferenceDelay(samples: current.postedSeed)
                current.seededEngine = ObjectIdentifier(fresh)
            }
            // The old engine is released here, on this thread, when `current` is overwritten.
            current.engine = fresh
            // Also the tuning tap's delay: the process thread reads it every cycle, so the tap
            // lines up with the new engine from the next cycle on.
            cycle.pointee.voiceLatency.store(fresh.latency, ordering: .relaxed)
            cycle.pointee.latencyChanged.store(true, ordering: .releasing)
            blockSizeProblem.withLock { $0 = nil }
        }
    }
}
