import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceRT
import VoiceTestSupport

/// The speaker curve inside RealtimeSanitizer's real-time region: the filter looks (speexdsp's
/// impulse response) and the choice of taps, the learning steps, the curve engaging (a rational tanh on
/// every reference sample from then on) and the clipping coherence drive it switches on.
@Suite("Real-time safety: speaker curve", .serialized)
struct SpeakerCurveRealtimeTests {
    @Test("warm cycles that learn and apply a clipping loudspeaker's curve do nothing real-time unsafe")
    func curveCyclesAreRealtimeSafe() throws {
        let configuration = try PresetLibrary.standard(pluginHost: nil).load("echo-cancel").configuration
        #expect(configuration.speakerCurve)
        #expect(configuration.clippingCoherenceSuppression > configuration.coherenceSuppression)
        let rate = 48_000, block = 256
        let rig = try CycleRig(configuration: configuration, rate: rate, block: block, referenceChannels: 1)
        let n = rate * 14
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 91)
        // A loudspeaker soft-clipping as tanh(5x)/5, in a small room.
        let played = Signals.softClipped(far, drive: 5)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.04, tail: 0.06, gain: 0.5, seed: 92)
        let mic = Signals.mix(
            Signals.convolve(played, room), Signals.whiteNoise(count: n, rms: 0.0003, seed: 93))
        // One second outside the region: the first looks and steps come later, inside it.
        let cycles = rig.renderChecked(mic: mic, far: far, warmBlocks: rate / block)
        #expect(cycles > 2000)
        let drive = rig.host.status().health.speakerDrive
        #expect(abs(drive - 5) <= 0.5, "drive \(drive)")
    }
}
