import Foundation
import VoiceRT

/// Ducking of the far end while the near end talks, and the ear-return monitor mix.
///
/// ```
/// far L/R ─► × duck gain ─► speaker_out L/R  (also the echo reference: the canceller hears
///                 ▲                            exactly what the speakers play)
///         voice detected last frame
/// mic ─► gain ─► high-pass ─► (dry voice) ─┐
///                      processed voice ────┴► voice level, pan ─┐
///                 speaker_out L/R ─► far level ─────────────────┴► × master ─► monitor_out L/R
/// ```
///
/// The dry monitor passes only the zero-latency input stage (gain, high-pass), so a singer hears
/// themself without the canceller's framing delay; `processed` hears the finished voice, late by
/// the engine's latency.
extension EngineState {
    /// Writes the (ducked) far end into the speaker buffers; render the engine with these as its
    /// far input so the reference is what the speakers play. - Realtime: safe.
    @_noLocks
    public mutating func feedSpeakers(
        farLeft: UnsafePointer<Float>, farRight: UnsafePointer<Float>,
        speakerLeft: UnsafeMutablePointer<Float>, speakerRight: UnsafeMutablePointer<Float>, frames: Int
    ) {
        if ducking.enabled {
            // The voice decision of the last processed frame (one frame late, well inside the
            // attack time), held for `onset` first: the double-talk detector's false alarms on
            // echo are short, a talker's phrase is not (measured: 17% of far-end-only time
            // ducked without the onset, none with it).
            ducking.voicedSamples = figures.voiceActive ? ducking.voicedSamples + frames : 0
            ducking.gain.setTarget(ducking.voicedSamples >= ducking.onset ? ducking.depth : 1)
        }
        for i in 0..<frames {
            let g = ducking.enabled ? ducking.gain.next() : 1
            speakerLeft[i] = farLeft[i] * g
            speakerRight[i] = farRight[i] * g
        }
    }

    /// Mixes the monitor (ear return) from the voice and the speaker feed; silence when off.
    /// Call after `render`: the feedback guard watches the cycle's mic. - Realtime: safe.
    @_noLocks
    public mutating func mixMonitor(
        voice: UnsafePointer<Float>, speakerLeft: UnsafePointer<Float>, speakerRight: UnsafePointer<Float>,
        monitorLeft: UnsafeMutablePointer<Float>, monitorRight: UnsafeMutablePointer<Float>, frames: Int
    ) {
        let m = monitor
        guard m.enabled else {
            for i in 0..<frames {
                monitorLeft[i] = 0
                monitorRight[i] = 0
            }
            monitorMeter.measure(power: 0, peak: 0, frames: frames)
            return
        }
        guardMonitor(frames)
        let source = m.dry ? UnsafePointer(buffers.mic) : voice
        var sumLeft: Float = 0
        var sumRight: Float = 0
        var peak: Float = 0
        for i in 0..<frames {
            let v = source[i]
            let g = monitorGains.next()
            let l = g.voiceLeft * v + g.far * speakerLeft[i]
            let r = g.voiceRight * v + g.far * speakerRight[i]
            monitorLeft[i] = l
            monitorRight[i] = r
            sumLeft += l * l
            sumRight += r * r
            peak = max(max(peak, abs(l)), abs(r))
        }
        // The louder channel: a voice panned hard left reads as loud as it sounds there.
        let power = frames > 0 ? max(sumLeft, sumRight) / Float(frames) : 0
        monitorMeter.measure(power: power, peak: peak, frames: frames)
    }
}

/// Ducking state: a smoothed gain with separate attack (down) and release (up) ramps.
struct DuckingState {
    let enabled: Bool
    /// Gain while the near end talks, linear (changed live by `ControlNames.duckingDepth`).
    var depth: Float
    var gain: AsymmetricGain
    /// Samples of continuous near-end voice before ducking starts (100 ms).
    let onset: Int
    var voicedSamples = 0

    init(_ c: EngineConfiguration, sampleRate: Int) {
        enabled = c.ducking
        depth = Decibels.amplitude(c.duckingDepthDB)
        onset = sampleRate / 10
        gain = AsymmetricGain(
            attackSamples: max(1, Int(Double(c.duckingAttackMilliseconds) * Double(sampleRate) / 1000)),
            releaseSamples: max(1, Int(Double(c.duckingReleaseMilliseconds) * Double(sampleRate) / 1000)))
    }
}

/// A gain that moves linearly to its target: over `attackSamples` when going down, over
/// `releaseSamples` when going up (from wherever it is now).
///
/// - Realtime: `setTarget` and `next` are safe.
struct AsymmetricGain {
    let attackSamples: Int
    let releaseSamples: Int
    private(set) var current: Float = 1
    private var target: Float = 1
    private var step: Float = 0

    init(attackSamples: Int, releaseSamples: Int) {
        self.attackSamples = attackSamples
        self.releaseSamples = releaseSamples
    }

    @inline(__always) @_noLocks
    mutating func setTarget(_ t: Float) {
        guard t != target else { return }
        target = t
        step = max(abs(t - current), 1e-6) / Float(t < current ? attackSamples : releaseSamples)
    }

    @inline(__always) @_noLocks
    mutating func next() -> Float {
        if current > target {
            current = max(target, current - step)
        } else if current < target {
            current = min(target, current + step)
        }
        return current
    }
}

/// Monitor mix settings as linear gains (pan is constant-power).
struct MonitorMix {
    let enabled: Bool
    let dry: Bool
    let voiceLeft: Float
    let voiceRight: Float
    let far: Float
    let master: Float

    init(_ c: EngineConfiguration) {
        enabled = c.monitor
        dry = c.monitorSource == .dry
        let voice = Decibels.amplitude(c.monitorVoiceDB)
        // Constant power: pan −1 (left) … +1 (right) maps to an angle 0 … π/2.
        let angle = Double(c.monitorVoicePan + 1) * Double.pi / 4
        voiceLeft = voice * Float(cos(angle))
        voiceRight = voice * Float(sin(angle))
        far = Decibels.amplitude(c.monitorFarDB)
        master = Decibels.amplitude(c.monitorMasterDB)
    }
}
