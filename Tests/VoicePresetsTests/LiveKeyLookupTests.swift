import Testing
import VoiceControl

@testable import VoicePresets

/// `get KEY` finds every key `show` lists, an LV2 unit's controls included.
@Suite struct LiveKeyLookupTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()])

    @Test func anLV2UnitsControlIsFoundAsShowListsIt() throws {
        let configuration = try library.load("podcast-lv2").settings
        let key = try PresetEdit.liveKey("peak.threshold", in: configuration)
        #expect(key.key == "peak.threshold" && key.value == "-1")
        let listed = try #require(PresetEdit.listing(configuration).first { $0.hasPrefix("peak.threshold = ") })
        #expect(listed == "peak.threshold = \(key.value)   (\(key.allowed))")
        #expect(throws: PresetError.self) { try PresetEdit.liveKey("peak.nope", in: configuration) }
        #expect(throws: PresetError.self) { try PresetEdit.liveKey("nope.threshold", in: configuration) }
    }
}
