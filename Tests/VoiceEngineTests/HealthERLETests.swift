import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

/// The ERLE the engine reports (status line, `process` summary) against the one the yardstick
/// measures on the same output: far end alone, from 5 s on (the yardstick's `--skip`).
@Suite("Health ERLE")
struct HealthERLETests {
    @Test(
        "the reported ERLE is within 3 dB of the measured one where the far end talks alone",
        arguments: [16_000, 48_000])
    func reportedMatchesMeasured(rate: Int) throws {
        // A room that reverberates beyond the filter, so removal is realistic (~30 dB) rather
        // than at the 16-bit floor, where any two ways of measuring drift apart.
        let scenario = ResidualEchoSuppressorTests.reverberantScenario(rate: rate, nearEnd: false)
        var c = EngineConfiguration.echoCancel
        c.residualSuppression = 0.3
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        let output = OfflineRenderer(engine: engine).process(mic: scenario.mic, reference: [scenario.reference])
        let measured = Measure.ratioDB(scenario.mic, output, (5 * rate)..<scenario.mic.count)
        // The far end talking (its pause is every fourth second, see Signals.speechLike).
        var micTalk = 0.0, outTalk = 0.0
        for i in (5 * rate)..<scenario.mic.count where (i / rate) % 4 != 3 {
            micTalk += Double(scenario.mic[i] * scenario.mic[i])
            outTalk += Double(output[i] * output[i])
        }
        let measuredTalking = 10 * log10(micTalk / outTalk)
        let reported = 10 * log10(Double(engine.health().echoReturnLossEnhancement))
        print(
            String(
                format: "rate %d: reported %.1f dB, measured %.1f dB, while the far end talks %.1f dB", rate, reported,
                measured, measuredTalking))
        #expect(measured > 25)
        #expect(abs(reported - measured) <= 3)
    }
}
