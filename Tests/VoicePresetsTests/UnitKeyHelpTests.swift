import Testing
import VoiceControl

@testable import VoicePresets

/// An effect unit's keys describe themselves from the unit's declaration: the names of an
/// enumerated parameter's values and how a change glides or crossfades (`show`, the panel).
@Suite struct UnitKeyHelpTests {
    @Test(
        arguments: [
            ("compressor.detector", "Detector: 0 peak, 1 rms."),
            ("compressor.makeup_db", "Make-up gain; a change glides over 10 ms."),
            ("compressor.threshold_dbfs", "Threshold."),
            ("gate.bypass", "Bypass: 0 off, 1 on; a change glides over 10 ms."),
            ("delay.time_ms", "Time; a change crossfades over 20 ms."),
            (
                "equalizer.band2_type",
                "Band 2 type: 0 off, 1 low shelf, 2 peaking, 3 high shelf, 4 low-pass, 5 high-pass; a change crossfades over 10 ms."
            ),
        ])
    func helpComesFromTheDeclaration(key: String, help: String) throws {
        let live = try PresetEdit.liveKey(key, in: PresetSettings(), pluginHost: nil)
        #expect(live.help == help)
    }
}

/// The leveller's preset keys read their names, ranges and units from `VoiceLeveller.parameters`:
/// the same as the schema wrote out before.
@Suite struct LevellerKeyTests {
    @Test(
        arguments: [
            ("target_dbfs", -40.0...(-6.0), "dBFS"), ("max_gain_db", 0.0...30.0, "dB"),
            ("speed_db_per_s", 0.5...30.0, "dB/s"),
        ])
    func rangeComesFromTheDeclaration(name: String, range: ClosedRange<Double>, unit: String) throws {
        let key = try #require(PresetSchema.key(section: "agc", name: name))
        guard case .number(_, let keyRange, _) = key.kind else {
            Issue.record("agc.\(name) is not a number")
            return
        }
        #expect(keyRange == range)
        #expect(key.unit == unit)
    }
}
