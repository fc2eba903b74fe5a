import Foundation
import VoiceEngine

/// A speaker-to-mic feedback loop around the engine's monitor, simulated sample by sample.
///
/// What the speakers play, `monitor_out_L + monitor_out_R` scaled by 1/√2 (so a centred voice at
/// 0 dB plays at unity and `loopGain` is the loop's gain at the resonance), reaches the mic `delay` samples later (≥ one block, so block-wise
/// rendering stays exact) through the room/speaker response: a band-pass resonance at
/// `resonanceHz` (Q `q`, peak gain `loopGain`), so the loop gain exceeds 1 only near that
/// frequency, as in a real room where one mode rings first. The mic clips at full scale like a
/// converter. The engine renders in `block`-sample cycles exactly as the JACK callback does.
struct FeedbackLoop {
    let engine: VoiceEngine
    let rate: Int
    var loopGain: Float
    let delay: Int
    // Band-pass biquad (RBJ, constant 0 dB peak gain), scaled by `loopGain`.
    private let b0, b2, a1, a2: Float
    private var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0
    /// Everything the mic received (after clipping) and the speakers played.
    private(set) var mic: [Float] = []
    private(set) var monitor: [Float] = []

    init(
        _ configuration: EngineConfiguration, rate: Int = 48_000, block: Int = 64, loopGain: Float,
        delay: Int = 192, resonanceHz: Double = 2_400, q: Double = 4
    ) throws {
        engine = try VoiceEngine(configuration: configuration, sampleRate: rate, blockSize: block, referenceChannels: 2)
        self.rate = rate
        self.loopGain = loopGain
        self.delay = max(delay, block)
        let w = 2 * Double.pi * resonanceHz / Double(rate)
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        b0 = Float(alpha / a0)
        b2 = Float(-alpha / a0)
        a1 = Float(-2 * cos(w) / a0)
        a2 = Float((1 - alpha) / a0)
    }

    /// Runs `excitation` (what the room would give the mic without the loop: voice, noise) through
    /// the loop.
    mutating func run(_ excitation: [Float]) {
        let b = engine.plan.blockSize
        var block = [Float](repeating: 0, count: b), sl = block, sr = block, v = block, ml = block, mr = block
        let zeros = block
        for start in stride(from: 0, to: excitation.count - b + 1, by: b) {
            for i in 0..<b {
                let t = mic.count + i
                let played = t - delay >= 0 && t - delay < monitor.count ? monitor[t - delay] : 0
                let y = b0 * played + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1
                x1 = played
                y2 = y1
                y1 = y
                block[i] = min(1, max(-1, excitation[start + i] + loopGain * y))
            }
            let state = engine.state
            state.pointee.feedSpeakers(farLeft: zeros, farRight: zeros, speakerLeft: &sl, speakerRight: &sr, frames: b)
            state.pointee.render(mic: block, farLeft: sl, farRight: sr, voice: &v, frames: b)
            state.pointee.mixMonitor(
                voice: v, speakerLeft: sl, speakerRight: sr, monitorLeft: &ml, monitorRight: &mr, frames: b)
            mic += block
            for i in 0..<b { monitor.append((ml[i] + mr[i]) * 0.707_106_8) }
        }
    }

    /// Peak |x| in dBFS over `range` of `signal`.
    static func peakDB(_ signal: [Float], _ range: Range<Int>) -> Double {
        let peak = signal[range].reduce(0) { max($0, abs($1)) }
        return 20 * log10(max(Double(peak), 1e-12))
    }
}
