import CJack
import Foundation
import VoiceEngine

/// JACK's buffer-size callback: `arg` is the unretained `JACKClient`.
///
/// - Realtime: never (JACK2 calls it on its notification thread; it allocates an engine).
func bufferSizeChanged(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    Unmanaged<JACKClient>.fromOpaque(arg).takeUnretainedValue().followBufferSize(Int(frames))
    return 0
}

extension JACKClient {
    /// Builds an engine for `blockSize` and swaps it in, freeing the old one here (never on the
    /// process thread). Until the swap, cycles larger than the old engine's block are silent.
    ///
    /// - Realtime: never. Called on JACK's notification thread.
    func followBufferSize(_ blockSize: Int) {
        if engine.withLock({ $0.engine.plan.blockSize == blockSize }) { return }
        let built = engine.withLock { $0.configuration }
        let fresh: VoiceEngine
        do {
            fresh = try Self.makeEngine(built, sampleRate: sampleRate, blockSize: blockSize)
        } catch {
            bufferSizeProblem.withLock { $0 = "buffer size \(blockSize): \(error.message); voice_out is silent" }
            return
        }
        engine.withLock { current in
            guard swapEngine(from: current.engine, to: fresh) else {
                bufferSizeProblem.withLock {
                    $0 = "buffer size \(blockSize): the process thread kept the engine; voice_out is silent"
                }
                return
            }
            // Live changes made while the engine was built reach it as messages.
            fresh.post(built.liveUpdate(to: current.configuration).messages)
            // The old engine is released here, on this thread, when `current` is overwritten.
            current.engine = fresh
            // Also the tuning tap's delay: the process thread reads it every cycle, so the tap
            // lines up with the new engine from the next cycle on.
            context.pointee.voiceLatency.store(fresh.latency, ordering: .relaxed)
            context.pointee.latencyChanged.store(true, ordering: .releasing)
            bufferSizeProblem.withLock { $0 = nil }
        }
    }

    /// Replaces `old`'s state with `new`'s in the engine slot, waiting while the process thread
    /// holds the token (at most one cycle). Gives up after about two seconds, which only happens
    /// if the process thread is stuck; `old` must then stay alive.
    private func swapEngine(from old: VoiceEngine, to new: VoiceEngine) -> Bool {
        let expected = UnsafeMutableRawPointer(old.state)
        let desired = UnsafeMutableRawPointer(new.state)
        for _ in 0..<4_000 {
            // Acquiring: the process thread's last writes to the old engine are visible before we
            // free it. Releasing: the new engine's memory is visible to the process thread.
            if context.pointee.engineSlot.compareExchange(
                expected: expected, desired: desired, ordering: .acquiringAndReleasing
            ).exchanged {
                return true
            }
            usleep(500)
        }
        return false
    }
}
