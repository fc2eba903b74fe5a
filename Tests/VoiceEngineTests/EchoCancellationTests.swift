import Testing
import VoiceEngine
import VoiceTestSupport

@Suite("Echo cancellation")
struct EchoCancellationTests {
    @Test("the linear canceller removes a synthetic echo")
    func linearCancellerRemovesEcho() throws {
        let scenario = EchoScenario()
        let (output, _) = try scenario.run(.cancellerOnly)
        let erle = Measure.ratioDB(scenario.mic, output, scenario.tail())
        #expect(erle > 20)
    }

    @Test("the echo-cancel chain removes a synthetic echo, its estimate agrees")
    func fullChainRemovesEcho() throws {
        let scenario = EchoScenario()
        let (output, engine) = try scenario.run(.echoCancel)
        let erle = Measure.ratioDB(scenario.mic, output, scenario.tail())
        #expect(erle > 35)
        #expect(abs(engine.health().estimatedDelay - 40 * 16) <= 16)
    }

    @Test("a bulk delay longer than the filter is found and cancelled", arguments: [0.25, 0.4])
    func longDelayIsAligned(delay: Double) throws {
        let scenario = EchoScenario(bulkDelay: delay)
        let (output, engine) = try scenario.run(.cancellerOnly)
        let erle = Measure.ratioDB(scenario.mic, output, scenario.tail())
        let h = engine.health()
        let estimatedMs = Double(h.estimatedDelay) * 1000 / 16_000
        #expect(abs(estimatedMs - delay * 1000) < 2)
        #expect(erle > 20)
    }
}
