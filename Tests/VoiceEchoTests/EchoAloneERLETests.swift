import Foundation
import Testing

@testable import VoiceEcho

/// The echo-alone health meter on its own: which frames count, how windows are ranked and kept.
@Suite("Echo-alone health ERLE")
struct EchoAloneERLETests {
    static let rate = 16_000
    static let frame = 160

    /// Feeds `seconds` of frames: the mic at 0 dB, the output `erleDB` under it, the echo
    /// estimate explaining `explained` of the mic.
    static func feed(
        _ meter: inout EchoAloneERLE, seconds: Double, erleDB: Float, explained: Float = 0.97, far: Bool = true
    ) {
        let frames = Int(seconds * Double(rate)) / frame
        for _ in 0..<frames {
            meter.measure(
                explained: explained, farActive: far, micPower: 1, outputPower: powf(10, -erleDB / 10),
                frames: frame, sampleRate: rate, resets: 0)
        }
    }

    static func reported(_ meter: borrowing EchoAloneERLE) -> Float { 10 * log10f(meter.ratio) }

    @Test("far end alone: the figure is the residual it measured, after 2 s of settling and 4 windows")
    func farEndAlone() {
        var meter = EchoAloneERLE()
        Self.feed(&meter, seconds: 3.9, erleDB: 40)
        #expect(meter.ratio == 0, "settling (2 s) plus four windows (2 s) are not over yet")
        Self.feed(&meter, seconds: 0.2, erleDB: 40)
        #expect(abs(Self.reported(meter) - 40) < 0.01)
    }

    @Test("frames the echo estimate does not explain (a talker) and frames without far end do not count")
    func doubleTalkLeftOut() {
        var meter = EchoAloneERLE()
        Self.feed(&meter, seconds: 2, erleDB: 40)
        for _ in 0..<10 {
            Self.feed(&meter, seconds: 1, erleDB: 40)
            // A talker as loud as the echo: the output is the talker, 3 dB under the mic.
            Self.feed(&meter, seconds: 1, erleDB: 3, explained: 0.5)
            Self.feed(&meter, seconds: 1, erleDB: 0, far: false)
        }
        #expect(meter.windows == 20)
        #expect(abs(Self.reported(meter) - 40) < 0.01)
    }

    @Test("windows more than 15 dB under the median are left out; those within it are averaged as power")
    func outliersTrimmed() {
        var meter = EchoAloneERLE()
        Self.feed(&meter, seconds: 2, erleDB: 40)
        Self.feed(&meter, seconds: 5, erleDB: 40)  // 10 windows at 40 dB
        Self.feed(&meter, seconds: 2.5, erleDB: 34)  // 5 at 34 dB: kept
        Self.feed(&meter, seconds: 1, erleDB: 10)  // 2 at 10 dB: left out
        let expected = -10 * log10f((10 * powf(10, -4) + 5 * powf(10, -3.4)) / 15)
        #expect(meter.windows == 17)
        #expect(abs(Self.reported(meter) - expected) < 0.01, "expected \(expected) dB")
    }

    @Test("the ring keeps the newest windows: a room that got worse reads worse once it has filled")
    func oldestDropped() {
        var meter = EchoAloneERLE()
        Self.feed(&meter, seconds: 2, erleDB: 45)
        Self.feed(&meter, seconds: Double(EchoAloneERLE.capacity) / 2, erleDB: 45)
        #expect(abs(Self.reported(meter) - 45) < 0.01)
        Self.feed(&meter, seconds: Double(EchoAloneERLE.capacity) / 2, erleDB: 25)
        #expect(meter.windows == EchoAloneERLE.capacity)
        #expect(abs(Self.reported(meter) - 25) < 0.01)
    }

    @Test("a canceller reset starts the settling again and drops the window being filled")
    func resetSettles() {
        var meter = EchoAloneERLE()
        Self.feed(&meter, seconds: 4.25, erleDB: 40)
        #expect(meter.windows == 4)
        // Reset: the next 2 s do not count, even at 10 dB.
        for _ in 0..<(2 * Self.rate / Self.frame) {
            meter.measure(
                explained: 0.97, farActive: true, micPower: 1, outputPower: 0.1, frames: Self.frame,
                sampleRate: Self.rate, resets: 1)
        }
        #expect(meter.windows == 4)
        #expect(abs(Self.reported(meter) - 40) < 0.01)
    }
}
