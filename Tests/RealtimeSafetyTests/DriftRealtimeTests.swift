import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceRT
import VoiceTestSupport

/// Clock-drift compensation inside RealtimeSanitizer's real-time region: the delay estimator's
/// drift figure engaging the reference resampler, the filter looks (speexdsp's impulse response),
/// the ratio's steps (speexdsp recomputing its sinc table) and the resampled reference.
@Suite("Real-time safety: drift compensation", .serialized)
struct DriftRealtimeTests {
    /// The far end through a room whose loudspeaker clock runs `ppm` fast: the echo's delay
    /// shrinks by ppm × 10⁻⁶ samples per sample (linear interpolation).
    static func driftingEcho(_ far: [Float], rate: Int, ppm: Double) -> [Float] {
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0, tail: 0.05, gain: 0.5, seed: 41)
        let echo = Signals.convolve(far, room)
        var out = [Float](repeating: 0, count: far.count)
        for n in 0..<far.count {
            let position = Double(n) - 0.06 * Double(rate) + ppm * 1e-6 * Double(n)
            let i = Int(position)
            guard i >= 0 && i + 1 < echo.count else { continue }
            let f = Float(position - Double(i))
            out[n] = echo[i] * (1 - f) + echo[i + 1] * f
        }
        return out
    }

    @Test("warm cycles that engage and follow 300 ppm of drift do nothing real-time unsafe")
    func driftCyclesAreRealtimeSafe() throws {
        let configuration = try PresetLibrary.standard(pluginHost: nil).load("echo-cancel").configuration
        #expect(configuration.driftCompensation)
        let rate = 48_000, block = 256
        let rig = try CycleRig(configuration: configuration, rate: rate, block: block, referenceChannels: 1)
        let n = rate * 14
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 42)
        let mic = Signals.mix(
            Self.driftingEcho(far, rate: rate, ppm: 300), Signals.whiteNoise(count: n, rms: 0.0003, seed: 43))
        // One second outside the region: compensation engages later, inside it.
        let cycles = rig.renderChecked(mic: mic, far: far, warmBlocks: rate / block)
        #expect(cycles > 2000)
        let h = rig.host.status().health
        #expect(h.driftCompensation == .following)
        #expect(abs(Double(h.clockDriftPPM) + 300) < 30)
    }
}
