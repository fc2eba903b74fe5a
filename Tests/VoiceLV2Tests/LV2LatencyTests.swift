import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// Reported latency (the plugin's latency port) against latency measured with an impulse.
@Suite("LV2 latency")
struct LV2LatencyTests {
    @Test(
        "an impulse comes out exactly the reported latency later",
        arguments: [Plugins.dpl, Plugins.lspLimiter, Plugins.swhLimiter])
    func reportedEqualsMeasured(uri: String) throws {
        let unit = try makeUnit(uri, block: 128)
        let reported = unit.latency()
        #expect(reported > 0, "\(uri) reports its look-ahead")
        var x = [Float](repeating: 0, count: 48_000)
        let at = 1_000
        x[at] = 0.25  // below both limiters' thresholds: passed unchanged, only delayed
        let y = unit.run(x, block: 128)
        let peak = y.indices.max { abs(y[$0]) < abs(y[$1]) }!
        #expect(peak - at == reported, "\(uri): measured \(peak - at) samples, reported \(reported)")
        #expect(abs(abs(y[peak]) - 0.25) < 0.01, "the impulse passes at its level (\(y[peak]))")
        #expect(unit.latency() == reported)
    }
}
