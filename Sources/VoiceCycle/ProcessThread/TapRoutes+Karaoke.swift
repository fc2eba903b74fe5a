import VoiceRT

/// The karaoke tap's mix: processed voice + backing track, each at its own level, in stereo.
///
/// The voice leaves the engine `latency` samples after the mic heard it, and the singer sang
/// over the backing the speakers played at that time, so the backing is delayed by the same
/// latency to line up with the voice in the recording (offline, both are already aligned).
///
/// - Realtime: `mix` is safe (process thread, inside `TapRoutes.record`); `init` allocates and
///   `deallocate` frees, main thread.
struct KaraokeMix: ~Copyable {
    let enabled: Bool
    let voiceGain: Float
    let backingGain: Float
    /// The mixed chunk, per channel.
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>
    var delayLeft: DelayLine
    var delayRight: DelayLine

    init(enabled: Bool, gains: (voice: Float, backing: Float), chunk: Int) {
        self.enabled = enabled
        voiceGain = gains.voice
        backingGain = gains.backing
        let size = enabled ? chunk : 1
        left = .zeroed(size)
        right = .zeroed(size)
        let delay = enabled ? TapRoutes.maximumDelay : 0
        delayLeft = DelayLine(maximumDelay: delay, maximumBlock: enabled ? chunk : 1)
        delayRight = DelayLine(maximumDelay: delay, maximumBlock: enabled ? chunk : 1)
    }

    func deallocate() {
        left.deallocate()
        right.deallocate()
    }

    /// Mixes `m` frames (at most the chunk) of voice and delayed backing into `left`/`right`.
    @inline(__always) @_noLocks
    mutating func mix(
        voice: UnsafePointer<Float>, backingLeft: UnsafePointer<Float>?, backingRight: UnsafePointer<Float>?,
        _ m: Int, latency: Int
    ) {
        if let backingLeft, let backingRight {
            delayLeft.setDelay(latency)
            delayRight.setDelay(latency)
            delayLeft.process(backingLeft, left, m)
            delayRight.process(backingRight, right, m)
        } else {
            for i in 0..<m {
                left[i] = 0
                right[i] = 0
            }
        }
        for i in 0..<m {
            let v = voiceGain * voice[i]
            left[i] = v + backingGain * left[i]
            right[i] = v + backingGain * right[i]
        }
    }
}
