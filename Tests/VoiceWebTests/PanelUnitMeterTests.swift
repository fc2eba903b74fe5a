import Foundation
import Testing
import VoiceControl

@testable import VoiceWeb

/// The unit meters the page draws on each rack card, from the session's snapshot.
@Suite("Panel unit meters")
struct PanelUnitMeterTests {
    @Test("each unit's peak and reduction reach the page in chain order; silence is -120, no reduction is left out")
    func unitsInTheFigures() throws {
        var s = LiveSnapshot()
        s.units = [
            .init(unit: "compressor", peak: -16.5, reductionDB: 10.5),
            .init(unit: "equalizer", peak: -.infinity, reductionDB: nil),
        ]
        let m = HubBackend.meters(s)
        #expect(
            m.units == [
                PanelUnitMeter(unit: "compressor", peakDB: -16.5, reductionDB: 10.5),
                PanelUnitMeter(unit: "equalizer", peakDB: -120, reductionDB: nil),
            ])
        let json = try #require(String(data: JSONEncoder().encode(m), encoding: .utf8))
        #expect(json.contains(#""reductionDB":10.5"#) && json.contains(#""peakDB":-120"#))
        #expect(!json.contains("null"), "JSON has no -inf and no null: a unit without reduction has no field")
    }
}
