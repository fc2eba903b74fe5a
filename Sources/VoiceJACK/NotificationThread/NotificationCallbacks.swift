import CJack
import VoiceCycle

// JACK's notification callbacks. JACK2 runs them on its notification thread, not the process
// thread; apart from the buffer size (which hands over to the session) they only touch the
// DriverContext's atomics, so they are safe whichever thread calls them.

/// JACK's buffer-size callback: `arg` is the unretained `JACKDriver`, which forwards to its client
/// (the session builds and swaps an engine for the new size).
///
/// - Realtime: never (JACK2 calls it on its notification thread; the client allocates).
func bufferSizeChanged(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    Unmanaged<JACKDriver>.fromOpaque(arg).takeUnretainedValue().client?.blockSizeChanged(to: Int(frames))
    return 0
}

/// Counts an xrun, except while freewheeling (the statistics pause: there is no deadline to miss).
/// - Realtime: safe (atomics only), like its neighbours; not marked `@_noLocks`, which is kept
///   for code on the process thread (ProcessThread/ folders).
func xrunOccurred(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let context = arg?.assumingMemoryBound(to: DriverContext.self),
        !context.pointee.freewheeling.load(ordering: .relaxed)
    else { return 0 }
    context.pointee.xruns.add(1, ordering: .relaxed)
    return 0
}

/// JACK's freewheel callback: `arg` is the unretained `JACKDriver`. Tells the client first (it
/// may swap in a fresh engine) when freewheel starts, then flips the flag the process thread
/// reads; when it stops, the flag is cleared first. JACK2 calls it on its notification thread
/// and waits for it, before the first freewheel cycle and after the last, so no real-time cycle
/// ever sees the flag set.
///
/// - Realtime: never (notification thread; the client may allocate).
func freewheelChanged(_ starting: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let driver = Unmanaged<JACKDriver>.fromOpaque(arg).takeUnretainedValue()
    let context = driver.context
    if starting != 0 {
        driver.client?.freewheelChanged(true)
        context.pointee.freewheelStarts.add(1, ordering: .relaxed)
        // Release: what the client prepared is visible to the process thread's acquire.
        context.pointee.freewheeling.store(true, ordering: .releasing)
    } else {
        context.pointee.freewheeling.store(false, ordering: .releasing)
        driver.client?.freewheelChanged(false)
    }
}

/// Records the sample rate JACK announces; the main thread compares it with the engine's.
/// - Realtime: safe (one atomic store).
func sampleRateChanged(_ rate: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    arg?.assumingMemoryBound(to: DriverContext.self).pointee.announcedSampleRate.store(Int(rate), ordering: .relaxed)
    return 0
}

/// Counts a port that came or went anywhere in the graph; the main thread reads the count to make
/// its links again when the ports they join appear (`--pipewire`).
/// - Realtime: safe (one atomic add).
func portRegistrationChanged(_ port: jack_port_id_t, _ registered: Int32, _ arg: UnsafeMutableRawPointer?) {
    arg?.assumingMemoryBound(to: DriverContext.self).pointee.portRegistrations.add(1, ordering: .relaxed)
}

/// Records that the server shut down (or kicked the client out) and why.
///
/// JACK requires this to be async-signal-safe: it copies the reason into the preallocated buffer
/// and sets a flag the main thread polls; nothing else.
func serverShutDownWithInfo(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: DriverContext.self) else { return }
    let buffer = context.pointee.shutdownReason
    var i = 0
    if let reason {
        while i < DriverContext.shutdownReasonCapacity - 1, reason[i] != 0 {
            buffer[i] = reason[i]
            i += 1
        }
    }
    buffer[i] = 0
    // Release: the reason's bytes are visible to whoever sees the flag.
    context.pointee.serverShutDown.store(true, ordering: .releasing)
}

/// The plain shutdown callback, registered beside the one with a reason: PipeWire's JACK (0.3.65)
/// calls only this one when its daemon dies. Leaves a reason the info callback gave in place.
/// Async-signal-safe: one atomic store.
func serverShutDown(_ arg: UnsafeMutableRawPointer?) {
    arg?.assumingMemoryBound(to: DriverContext.self).pointee.serverShutDown.store(true, ordering: .releasing)
}

/// Reports the latency each path adds, in samples, as JACK's latency API asks: in capture mode an
/// output's range is its input's capture range plus what the path adds; in playback mode an
/// input's range is its output's playback range plus the same.
///
/// mic_in → voice_out adds the cycle's voice latency (the engine's re-framing, preprocessor and
/// chain); far_in → speaker_out adds nothing (a copy, ducked or not); the monitor adds what the
/// cycle says (nothing for the dry voice, the voice's latency for the processed one).
///
/// - Realtime: never needed there (JACK calls it on a non-realtime thread).
func latencyChanged(_ mode: jack_latency_callback_mode_t, _ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: DriverContext.self), let cycle = context.pointee.cycle else {
        return
    }
    let ports = context.pointee.ports
    let added = UInt32(clamping: cycle.pointee.voiceLatency.load(ordering: .relaxed))
    if mode == JackCaptureLatency {
        propagate(mode, from: ports.mic, to: [ports.voice], adding: added)
        let monitorAdded = UInt32(clamping: cycle.pointee.monitorLatency)
        propagate(mode, from: ports.mic, to: [ports.monitorLeft, ports.monitorRight], adding: monitorAdded)
        propagate(mode, from: ports.farLeft, to: [ports.speakerLeft], adding: 0)
        propagate(mode, from: ports.farRight, to: [ports.speakerRight], adding: 0)
    } else {
        propagate(mode, from: ports.voice, to: [ports.mic], adding: added)
        propagate(mode, from: ports.speakerLeft, to: [ports.farLeft], adding: 0)
        propagate(mode, from: ports.speakerRight, to: [ports.farRight], adding: 0)
    }
}

/// Sets each of `targets`' `mode` latency range to `source`'s plus `added` samples.
private func propagate(
    _ mode: jack_latency_callback_mode_t, from source: OpaquePointer, to targets: [OpaquePointer],
    adding added: UInt32
) {
    var range = jack_latency_range_t()
    jack_port_get_latency_range(source, mode, &range)
    range.min += added
    range.max += added
    for target in targets { jack_port_set_latency_range(target, mode, &range) }
}
