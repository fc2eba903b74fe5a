// The test peer is a test tool, not part of the product: it imports CJack directly (in the product
// only VoiceJACK does) so that it shares no code with the client it checks.
import CJack
import Synchronization

/// JACK's process callback: plays one cycle of mic and far end and records one cycle of the
/// listened outputs (voice_out unless asked otherwise).
///
/// `arg` points at the `PlaybackContext`. Mic and far end come from the same position in the same
/// cycle, so they reach voicerack sample-synchronously; the voice read in that cycle is stored at
/// the same position, which keeps the recording a fixed number of samples behind the mic.
///
/// - Realtime: safe; this is the process thread's entry point.
@_noLocks
func peerProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    arg.assumingMemoryBound(to: PlaybackContext.self).pointee.run(frames)
    return 0
}

extension PlaybackContext {
    /// One cycle; see `peerProcess`. - Realtime: safe.
    @_noLocks
    func run(_ frames: jack_nframes_t) {
        let n = Int(frames)
        guard let micOut = portBuffer(ports.mic, frames), let leftOut = portBuffer(ports.farLeft, frames),
            let rightOut = portBuffer(ports.farRight, frames)
        else { return }
        let inFreewheel = freewheeling.load(ordering: .acquiring)
        if inFreewheel { freewheelFrames.add(n, ordering: .relaxed) }
        // Acquire: pairs with the main thread's release once the connections are made.
        let playing = started.load(ordering: .acquiring) && (!playsInFreewheel || inFreewheel)
        // `--room`: nothing plays before the first listened port sounds; then from that sample.
        let offset = playing ? soundOnset(frames) : n
        let p = offset < n ? position.load(ordering: .relaxed) : length
        let count = max(0, min(n - offset, length - p))
        for i in 0..<offset {
            micOut[i] = 0
            leftOut[i] = 0
            rightOut[i] = 0
        }
        for i in 0..<count {
            micOut[offset + i] = mic[p + i]
            leftOut[offset + i] = farLeft[p + i]
            rightOut[offset + i] = farRight[p + i]
        }
        for k in 0..<ports.listenedCount {
            guard let input = portBuffer(ports.listened[k], frames) else { continue }
            let plane = recorded + k * length + p
            for i in 0..<count { plane[i] = input[offset + i] }
        }
        for i in (offset + count)..<n {
            micOut[i] = 0
            leftOut[i] = 0
            rightOut[i] = 0
        }
        if playing, ports.listenedCount > 0, let speakers = portBuffer(ports.listened[0], frames) {
            room.addEcho(from: speakers, to: micOut, n)
        }
        guard count > 0 else { return }
        playedCycles.add(1, ordering: .relaxed)
        smallestPeriod.min(n, ordering: .relaxed)
        largestPeriod.max(n, ordering: .relaxed)
        let first = firstPeriod.load(ordering: .relaxed)
        if first == 0 {
            firstPeriod.store(n, ordering: .relaxed)
        } else if n != first, periodChangedAt.load(ordering: .relaxed) < 0 {
            periodChangedAt.store(p, ordering: .relaxed)
        }
        // Release: the recorded samples are visible to whoever sees the new position (the main
        // thread reads them only after deactivating, but this keeps the contract simple).
        position.store(p + count, ordering: .releasing)
    }
}

extension PlaybackContext {
    /// Where in this cycle playback starts: 0 once it has started, or without `--room`; with it,
    /// the first sample of the first listened port above `onsetLevel`, `frames` while there is
    /// none. - Realtime: safe.
    @_noLocks
    func soundOnset(_ frames: jack_nframes_t) -> Int {
        guard startsOnSound, !sounded.load(ordering: .relaxed) else { return 0 }
        let n = Int(frames)
        guard ports.listenedCount > 0, let input = portBuffer(ports.listened[0], frames) else { return n }
        for i in 0..<n where abs(input[i]) > onsetLevel {
            sounded.store(true, ordering: .relaxed)
            return i
        }
        return n
    }
}

/// The port's buffer for this cycle. - Realtime: safe; only from the process callback.
@inline(__always) @_noLocks
private func portBuffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutablePointer<Float>? {
    // Realtime: jack_port_get_buffer returns a pointer into memory the server mapped before
    // activation; it neither allocates nor locks.
    let raw = _unsafePerformance { jack_port_get_buffer(port, frames) }
    return raw?.assumingMemoryBound(to: Float.self)
}

/// Counts an xrun. - Realtime: safe (notification thread in JACK2; one atomic add).
func peerXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    arg?.assumingMemoryBound(to: PlaybackContext.self).pointee.xruns.add(1, ordering: .relaxed)
    return 0
}

/// Notes the server starting or stopping to freewheel (notification thread; one atomic store).
func peerFreewheel(_ starting: Int32, _ arg: UnsafeMutableRawPointer?) {
    arg?.assumingMemoryBound(to: PlaybackContext.self).pointee.freewheeling.store(starting != 0, ordering: .releasing)
}

/// Notes a server shutdown; async-signal-safe as JACK asks (one atomic store).
func peerShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    arg?.assumingMemoryBound(to: PlaybackContext.self).pointee.serverShutDown.store(true, ordering: .releasing)
}
