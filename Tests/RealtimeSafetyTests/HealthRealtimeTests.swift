import CRealtimeCheck
import Foundation
import Testing
import VoiceEcho
import VoiceEngine

/// The echo-alone health meter inside RealtimeSanitizer's real-time region: windows that fill
/// its ring, and more, so the oldest are dropped from the sorted values while new ones go in.
@Suite("Real-time safety: health ERLE", .serialized)
struct HealthRealtimeTests {
    @Test("the echo-alone ERLE meter keeps, drops and ranks its windows without anything real-time unsafe")
    func echoAloneMeterIsRealtimeSafe() {
        var meter = EchoAloneERLE()
        let rate = 48_000, frame = 384
        // Half a second per window: capacity + 60 windows, the settling second included.
        let frames = (EchoAloneERLE.capacity + 60) * rate / 2 / frame + 2 * rate / frame
        rtcheck_enter()
        for i in 0..<frames {
            // Residuals spread evenly from 40 to 20 dB under the mic (mean 5.05e-3 of its power,
            // 23.0 dB), and a double-talk frame now and then, which does not count.
            let residual = Float(1e-3) * Float(1 + (i * 7) % 100) / 10
            meter.measure(
                explained: i % 9 == 0 ? 0.3 : 0.97, farActive: true, micPower: 1e-2, outputPower: 1e-2 * residual,
                frames: frame, sampleRate: rate, resets: 0)
        }
        rtcheck_exit()
        #expect(meter.windows == EchoAloneERLE.capacity)
        let db = 10 * log10(meter.ratio)
        #expect(abs(db - 23.0) < 0.5, "reported \(db) dB")
    }
}
