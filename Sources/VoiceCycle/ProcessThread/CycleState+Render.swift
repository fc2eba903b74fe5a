import VoiceEngine

/// The one render cycle every driver runs: JACK's process callback, the offline driver and the
/// real-time tests call exactly this function.
///
/// ```
/// far L/R ─► ducking ─► + backing ─► speaker_out L/R ─┬─► echo reference ─┐
///                                                      └──────────────────┐│
/// mic ────────────────────────────► voice engine (canceller, chain) ─► voice_out
///                                                                     ││
///                         monitor mix (dry or processed voice + speakers) ─► guard ─► monitor_out
/// taps: voice, mic, reference, monitor, tuning, karaoke ─► recorders, streams (lock-free blocks)
/// ```
extension CycleState {
    /// Renders one cycle: the (ducked) far end plus the backing track to the speakers, which is
    /// also the engine's echo reference; the voice; the monitor mix with its feedback guard; then
    /// the taps. Without an engine token (a swap is in progress) the far end passes to the
    /// speakers and voice and monitor are silent. A cycle larger than the engine's block (the
    /// period grew and the engine for it is still being built, off this thread) is rendered in
    /// pieces of the engine's block, as if the driver had run that many shorter cycles.
    ///
    /// - Realtime: safe; the driver's process thread only.
    @_noLocks
    public mutating func render(_ io: CycleIO) {
        if io.freewheeling {
            // NOT real time, on purpose: in freewheel there is no deadline, so the cycle waits
            // for the recorder and the backing reader instead of dropping or padding. Reachable
            // only while the driver freewheels (CycleState+FreewheelWait.swift).
            if !freewheelWaitAbandoned { freewheelWaitAbandoned = !waitForConsumers(frames: io.frames) }
        } else {
            freewheelWaitAbandoned = false
        }
        var backingPlayed = false
        if let state = takeEngine() {
            let block = state.pointee.plan.blockSize
            if io.frames > block { oversizedCycles.add(1, ordering: .relaxed) }
            var offset = 0
            while offset < io.frames {
                renderEngine(state, io.slice(from: offset, frames: min(block, io.frames - offset)))
                offset += block
            }
            backingPlayed = backing != nil
            // Release: the control side may free the engine once it holds the token again, so
            // this cycle's writes to it must happen before.
            engineSlot.store(UnsafeMutableRawPointer(state), ordering: .releasing)
        } else {
            passFarEnd(io)
        }
        routeTaps(io, backingPlayed: backingPlayed)
    }

    /// The engine's part of a cycle of at most its block: speakers, backing, voice, monitor, mute.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func renderEngine(_ state: UnsafeMutablePointer<EngineState>, _ io: CycleIO) {
        let n = io.frames
        state.pointee.feedSpeakers(
            farLeft: io.farLeft, farRight: io.farRight, speakerLeft: io.speakerLeft, speakerRight: io.speakerRight,
            frames: n)
        // The backing joins the speakers after ducking, so it is in the reference and the monitor.
        backing?.pointee.play(into: io.speakerLeft, io.speakerRight, frames: n, rolling: io.transport.rolling)
        state.pointee.render(
            mic: io.mic, farLeft: io.speakerLeft, farRight: io.speakerRight, voice: io.voice, frames: n)
        state.pointee.mixMonitor(
            voice: io.voice, speakerLeft: io.speakerLeft, speakerRight: io.speakerRight,
            monitorLeft: io.monitorLeft, monitorRight: io.monitorRight, frames: n)
        // After the monitor (you still hear yourself), before the taps (they record voice_out).
        applyMute(io, voiceActive: state.pointee.voiceActive)
    }

    /// Takes the engine's token for this cycle; nil (and counted) when a swap holds it.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func takeEngine() -> UnsafeMutablePointer<EngineState>? {
        // Acquire pairs with the control side's release when it installed this engine, so the
        // engine's memory is fully visible here.
        guard let token = engineSlot.exchange(nil, ordering: .acquiring) else {
            silentCycles.add(1, ordering: .relaxed)
            return nil
        }
        return token.assumingMemoryBound(to: EngineState.self)
    }

    /// Glides the voice to the requested mute and follows the talker while muted. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func applyMute(_ io: CycleIO, voiceActive: Bool) {
        let muted = muteRequested.load(ordering: .relaxed)
        if mute.apply(muted: muted, voice: io.voice, frames: io.frames, voiceActive: voiceActive) {
            mutedTalkEvents.add(1, ordering: .relaxed)
        }
        mutedTalking.store(mute.talking, ordering: .relaxed)
    }

    /// No engine this cycle: the far end still reaches the speakers; voice and monitor are silent.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func passFarEnd(_ io: CycleIO) {
        for i in 0..<io.frames {
            io.speakerLeft[i] = io.farLeft[i]
            io.speakerRight[i] = io.farRight[i]
            io.voice[i] = 0
            io.monitorLeft[i] = 0
            io.monitorRight[i] = 0
        }
    }

    /// Feeds the recordings while holding the route set's token (see `TapRoutes`).
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func routeTaps(_ io: CycleIO, backingPlayed: Bool) {
        // Acquire pairs with the main thread's release when it installed the set.
        guard let token = routeSlot.exchange(nil, ordering: .acquiring) else { return }
        let routes = token.assumingMemoryBound(to: TapRoutes.self)
        guard let gap = routes.pointee.admit(io, gate: recordingGate.load(ordering: .relaxed)) else {
            routeSlot.store(token, ordering: .releasing)
            return
        }
        let backing = backingPlayed ? self.backing : nil
        routes.pointee.record(
            mic: io.mic, speakerLeft: io.speakerLeft, speakerRight: io.speakerRight, voice: io.voice,
            monitorLeft: io.monitorLeft, monitorRight: io.monitorRight,
            backingLeft: backing.map { UnsafePointer($0.pointee.left) },
            backingRight: backing.map { UnsafePointer($0.pointee.right) }, frames: io.frames,
            latency: voiceLatency.load(ordering: .relaxed), missed: gap)
        // Release: the main thread may free the set (and finish its recordings) once it holds
        // the token again, so this cycle's writes must happen before.
        routeSlot.store(token, ordering: .releasing)
    }
}
