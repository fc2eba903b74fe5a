import VoiceRT
import VoiceUnits

/// The monitor mix's gains as they glide: voice left/right, far end, master, and the feedback
/// guard's mute. Live changes (`ControlNames.monitor…`) and the guard set targets; the mix
/// reads one set of gains per sample, so no change steps.
///
/// - Realtime: `setTarget`, `next` are safe.
struct MonitorGains {
    var voiceLeft: SmoothedGain
    var voiceRight: SmoothedGain
    var far: SmoothedGain
    var master: SmoothedGain
    /// 1 normally, 0 while the feedback guard holds the monitor muted (a 20 ms glide).
    var mute: SmoothedGain

    /// Starts at the preset's mix; level changes glide over 10 ms.
    init(_ mix: MonitorMix, sampleRate: Int) {
        let ramp = max(1, sampleRate / 100)
        voiceLeft = SmoothedGain(initial: mix.voiceLeft, rampLength: ramp)
        voiceRight = SmoothedGain(initial: mix.voiceRight, rampLength: ramp)
        far = SmoothedGain(initial: mix.far, rampLength: ramp)
        master = SmoothedGain(initial: mix.master, rampLength: ramp)
        mute = SmoothedGain(initial: 1, rampLength: max(1, sampleRate / 50))
    }

    /// Sets gain `index` (0 voice left, 1 voice right, 2 far, 3 master), linear.
    @inline(__always) @_noLocks
    mutating func setTarget(_ index: Int, _ value: Float) {
        switch index {
        case 0: voiceLeft.setTarget(value)
        case 1: voiceRight.setTarget(value)
        case 2: far.setTarget(value)
        default: master.setTarget(value)
        }
    }

    /// The next sample's gains for voice left, voice right and far end (master and mute applied).
    @inline(__always) @_noLocks
    mutating func next() -> (voiceLeft: Float, voiceRight: Float, far: Float) {
        let m = master.next() * mute.next()
        return (voiceLeft.next() * m, voiceRight.next() * m, far.next() * m)
    }
}
