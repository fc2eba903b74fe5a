import CJack

// JACK's notification callbacks other than the buffer size (see JACKClient+BufferSize.swift).
// JACK2 runs them on its notification thread, not the process thread; they still only touch the
// ProcessContext's atomics, so they are safe whichever thread calls them.

/// Counts an xrun. - Realtime: safe (one relaxed atomic add).
@_noLocks
func xrunOccurred(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    arg?.assumingMemoryBound(to: ProcessContext.self).pointee.xruns.add(1, ordering: .relaxed)
    return 0
}

/// Records the sample rate JACK announces; the main thread compares it with the engine's.
/// - Realtime: safe (one atomic store).
func sampleRateChanged(_ rate: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    arg?.assumingMemoryBound(to: ProcessContext.self).pointee.announcedSampleRate.store(Int(rate), ordering: .relaxed)
    return 0
}

/// Records that the server shut down (or kicked the client out) and why.
///
/// JACK requires this to be async-signal-safe: it copies the reason into the preallocated buffer
/// and sets a flag the main thread polls; nothing else.
func serverShutDown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: ProcessContext.self) else { return }
    let buffer = context.pointee.shutdownReason
    var i = 0
    if let reason {
        while i < ProcessContext.shutdownReasonCapacity - 1, reason[i] != 0 {
            buffer[i] = reason[i]
            i += 1
        }
    }
    buffer[i] = 0
    // Release: the reason's bytes are visible to whoever sees the flag.
    context.pointee.serverShutDown.store(true, ordering: .releasing)
}

/// Reports the latency each path adds, in samples, as JACK's latency API asks: in capture mode an
/// output's range is its input's capture range plus what the path adds; in playback mode an
/// input's range is its output's playback range plus the same.
///
/// mic_in → voice_out adds the engine's latency (re-framing + preprocessor); far_in → speaker_out
/// adds nothing (a copy, ducked or not); the monitor adds nothing when it carries the dry voice,
/// the engine's latency when it carries the processed voice.
///
/// - Realtime: never needed there (JACK calls it on a non-realtime thread).
func latencyChanged(_ mode: jack_latency_callback_mode_t, _ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: ProcessContext.self) else { return }
    let ports = context.pointee.ports
    let added = UInt32(clamping: context.pointee.voiceLatency.load(ordering: .relaxed))
    if mode == JackCaptureLatency {
        propagate(mode, from: ports.mic, to: [ports.voice], adding: added)
        let monitorAdded = context.pointee.monitorIsProcessed ? added : 0
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
