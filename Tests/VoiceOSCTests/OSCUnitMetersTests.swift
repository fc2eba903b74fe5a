import Testing
import VoiceControl

@testable import VoiceOSC

/// `/voicerack/units`, pushed with the meters: each chain unit's output peak and gain reduction
/// as NAME VALUE pairs.
@Suite("OSC unit meters")
struct OSCUnitMetersTests {
    @Test("each unit's peak and reduction go as named pairs in chain order; silence is -120, no reduction N")
    func unitPairs() throws {
        var s = LiveSnapshot()
        #expect(OSCReplies.units(s) == nil, "no chain, no message")
        s.units = [
            .init(unit: "compressor", peak: -16.5, reductionDB: 10.5),
            .init(unit: "equalizer", peak: -.infinity, reductionDB: nil),
        ]
        let m = try #require(OSCReplies.units(s))
        #expect(m.path == "/voicerack/units")
        #expect(m.typeTags == "sfsfsfsN")
        #expect(
            m.arguments == [
                .string("compressor.peak_dbfs"), .float(-16.5), .string("compressor.reduction_db"), .float(10.5),
                .string("equalizer.peak_dbfs"), .float(-120), .string("equalizer.reduction_db"), .nil,
            ])
        #expect(m.encoded() != nil)
    }
}
