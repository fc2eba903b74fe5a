import VoiceUnits

/// VoiceProcessingIO's mute: `voice_out` (and the voice in the recordings) glides to silence in
/// 20 ms, without a click, and while muted the engine's voice decision raises "talking while
/// muted" (Apple's muted-talker detection).
///
/// The decision is the engine's near-end voice activity, taken on the echo canceller's output
/// with double-talk rules, not on the raw mic, so far-end echo alone does not count as talking;
/// and the processed voice (before the mute) must be above `floor` (−50 dBFS mean square over
/// the block): speexdsp's VAD also fires on faint noise and on echo residue in the far end's
/// pauses, which no talker makes.
/// Hysteresis: talking starts after `onset` samples of continuous voice (150 ms) and ends after
/// `release` samples without (500 ms), so one event covers a phrase.
///
/// - Realtime: `apply` is safe (process thread); built off it.
struct VoiceMute {
    /// 1 while open, 0 while muted, gliding over 20 ms.
    var gain: SmoothedGain
    let onset: Int
    let release: Int
    /// Mean square the processed voice must exceed to count (−50 dBFS).
    let floor: Float = 1e-5
    private var voicedSamples = 0
    private var quietSamples = 0
    /// True while the talker is detected talking into the mute (with hysteresis).
    private(set) var talking = false

    init(sampleRate: Int) {
        gain = SmoothedGain(initial: 1, rampLength: max(1, sampleRate / 50))
        onset = sampleRate * 15 / 100
        release = sampleRate / 2
    }

    /// Mutes (`muted`) or opens the voice, glides `frames` samples of `voice`, and follows the
    /// talker while muted. Returns true when a "talking while muted" event started this cycle.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func apply(
        muted: Bool, voice: UnsafeMutablePointer<Float>, frames: Int, voiceActive: Bool
    ) -> Bool {
        var power: Float = 0
        for i in 0..<frames { power += voice[i] * voice[i] }
        let loud = power > floor * Float(frames)
        gain.setTarget(muted ? 0 : 1)
        gain.apply(voice, frames: frames)
        guard muted else {
            voicedSamples = 0
            quietSamples = 0
            talking = false
            return false
        }
        if voiceActive && loud {
            voicedSamples += frames
            quietSamples = 0
        } else {
            quietSamples += frames
            if quietSamples >= release { voicedSamples = 0 }
        }
        if !talking && voicedSamples >= onset {
            talking = true
            return true
        }
        if talking && quietSamples >= release { talking = false }
        return false
    }
}
