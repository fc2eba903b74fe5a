import VoiceRT

/// The karaoke tap's mix: processed voice + backing track, each at its own level, in stereo.
///
/// The voice leaves the engine `latency` samples after the mic heard it, and the singer sang
/// over the backing the speakers played at that time, so the backing is delayed by the same
/// latency to line up with the voice in the recording (offline, both are already aligned).
///
/// - Realtime: `mix` is safe (process thread, inside `TapRoutes.record`); `init` allocates and
///   deinit frees, main thread.
struct KaraokeMix: ~Copyable {
    let enabled: Bool
    let voiceGain: Float
    let backingGain: Float
    /// The mixed chunk, per channel: the delayed backing's chunks, mixed in place.
    var left: AlignedChannel
    var right: AlignedChannel

    init(enabled: Bool, gains: (voice: Float, backing: Float), chunk: Int) {
        self.enabled = enabled
        voiceGain = gains.voice
        backingGain = gains.backing
        let size = enabled ? chunk : 1
        let delay = enabled ? TapRoutes.maximumDelay : 0
        left = AlignedChannel(maximumDelay: delay, chunk: size)
        right = AlignedChannel(maximumDelay: delay, chunk: size)
    }

    /// Mixes `m` frames (at most the chunk) of voice and delayed backing into `left`/`right`.
    @inline(__always) @_noLocks
    mutating func mix(
        voice: UnsafePointer<Float>, backingLeft: UnsafePointer<Float>?, backingRight: UnsafePointer<Float>?,
        _ m: Int, latency: Int
    ) {
        let (l, r) = (left.samples, right.samples)
        if let backingLeft, let backingRight {
            left.align(backingLeft, m, latency: latency)
            right.align(backingRight, m, latency: latency)
        } else {
            for i in 0..<m {
                l[i] = 0
                r[i] = 0
            }
        }
        for i in 0..<m {
            let v = voiceGain * voice[i]
            l[i] = v + backingGain * l[i]
            r[i] = v + backingGain * r[i]
        }
    }
}
