import Foundation
import Testing

@testable import VoiceUnits

@Suite("Fast decibels")
struct FastDecibelsTests {
    @Test("fast log2 and exp2 stay within 0.001 dB of libm from −200 to +40 dB")
    func accuracy() {
        var worstLog = 0.0, worstExp = 0.0
        var db = -200.0
        while db <= 40 {
            let a = Float(pow(10, db / 20))
            worstLog = max(worstLog, abs(Double(FastDecibels.fromAmplitude(a)) - 20 * log10(Double(a))))
            let back = FastDecibels.amplitude(Float(db))
            worstExp = max(worstExp, abs(20 * log10(Double(back)) - db))
            db += 0.0137  // not a round step, so every mantissa region is visited
        }
        #expect(worstLog < 0.001)
        #expect(worstExp < 0.001)
        #expect(FastDecibels.fromAmplitude(0) < -590)  // silence maps far below any threshold
        #expect(FastDecibels.amplitude(-1_000) >= 0)
    }
}
