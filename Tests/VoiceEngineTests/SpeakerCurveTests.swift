import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// The loudspeaker's soft clipping, learned and applied to the canceller's reference
/// (`SpeakerCurve`), and the coherence drive that goes with it.
@Suite("Speaker curve")
struct SpeakerCurveTests {
    /// Far end alone for `seconds`, played through a loudspeaker that soft-clips as
    /// tanh(`drive`·x)/`drive` (0: linear) into a small room.
    static func scenario(rate: Int, drive: Double, seconds: Int = 20) -> (reference: [Float], mic: [Float]) {
        let n = rate * seconds
        let reference = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 81)
        let played = Signals.softClipped(reference, drive: drive)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.04, tail: 0.06, gain: 0.5, seed: 82)
        let noise = Signals.whiteNoise(count: n, rms: 0.0003, seed: 83)
        return (reference, Signals.mix(Signals.convolve(played, room), noise))
    }

    /// The linear canceller with the delay estimator (as echo-cancel), the speaker curve on or off.
    static func run(
        _ s: (reference: [Float], mic: [Float]), rate: Int, curve: Bool, clippingDrive: Float = 0
    ) throws -> (output: [Float], health: HealthFigures) {
        var c = EngineConfiguration.cancellerOnly
        c.speakerCurve = curve
        c.coherenceSuppression = clippingDrive > 0 ? 0.2 : 0
        c.clippingCoherenceSuppression = clippingDrive
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        let output = OfflineRenderer(engine: engine).process(mic: s.mic, reference: [s.reference])
        return (output, engine.health())
    }

    @Test(
        "a loudspeaker that soft-clips is learned within 10% of its drive, and the canceller removes more of its echo",
        arguments: [16_000, 48_000])
    func learnsClipping(rate: Int) throws {
        let s = Self.scenario(rate: rate, drive: 5)
        let off = try Self.run(s, rate: rate, curve: false)
        let on = try Self.run(s, rate: rate, curve: true)
        let settled = (s.mic.count / 2)..<s.mic.count
        let erleOff = Measure.ratioDB(s.mic, off.output, settled)
        let erleOn = Measure.ratioDB(s.mic, on.output, settled)
        print(
            String(
                format: "%d Hz: drive learned %.4f (true 5); ERLE curve off %.1f dB, on %.1f dB", rate,
                on.health.speakerDrive, erleOff, erleOn))
        #expect(off.health.speakerDrive == 0)
        // Measured 5.00 and 13.6 → 40.2 dB (16 kHz), 12.3 → 40.2 dB (48 kHz): the model is exact here.
        #expect(abs(on.health.speakerDrive - 5) <= 0.5)
        #expect(erleOn >= erleOff + 20)
    }

    @Test(
        "a linear loudspeaker stays linear: the output is sample-identical with the curve off, also in double talk",
        arguments: [16_000, 48_000])
    func linearRoomUntouched(rate: Int) throws {
        let s = EchoScenario(sampleRate: rate, seconds: 16, nearEnd: true, seed: 9)
        var c = EngineConfiguration.echoCancel
        c.clippingCoherenceSuppression = 0.5
        c.coherenceSuppression = 0.2
        let on = try s.run(c)
        c.speakerCurve = false
        let off = try s.run(c)
        let far = EchoScenario(sampleRate: rate, seconds: 16, nearEnd: false, seed: 10)
        c.speakerCurve = true
        let farOn = try far.run(c)
        c.speakerCurve = false
        let farOff = try far.run(c)
        #expect(on.engine.health().speakerDrive == 0)
        #expect(farOn.engine.health().speakerDrive == 0)
        #expect(on.output == off.output)
        #expect(farOn.output == farOff.output)
    }

    @Test("with a clipping loudspeaker modelled, the clipping coherence drive removes more of what is left")
    func clippingDriveEngages() throws {
        let rate = 16_000
        let s = Self.scenario(rate: rate, drive: 5)
        let plain = try Self.run(s, rate: rate, curve: true, clippingDrive: 0.2)
        let driven = try Self.run(s, rate: rate, curve: true, clippingDrive: 1)
        let settled = (s.mic.count / 2)..<s.mic.count
        let erlePlain = Measure.ratioDB(s.mic, plain.output, settled)
        let erleDriven = Measure.ratioDB(s.mic, driven.output, settled)
        print(String(format: "clipping drive 0.2: ERLE %.1f dB; 1: %.1f dB", erlePlain, erleDriven))
        #expect(driven.health.speakerDrive > 0)
        // Measured 47.6 → 56.0 dB.
        #expect(erleDriven >= erlePlain + 5)
    }
}
