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
