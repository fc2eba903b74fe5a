import Testing
import VoiceControl

@testable import VoicePresets

/// `get KEY` finds every key `show` lists, an LV2 unit's controls included.
@Suite struct LiveKeyLookupTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()], pluginHost: lv2Host)

    @Test func anLV2UnitsControlIsFoundAsShowListsIt() throws {
        let configuration = try library.load("podcast-lv2").settings
        let key = try PresetEdit.liveKey("peak.threshold", in: configuration, pluginHost: lv2Host)
        #expect(key.key == "peak.threshold" && key.value == "-1")
        let listed = try #require(
            PresetEdit.listing(configuration, pluginHost: lv2Host).first { $0.hasPrefix("peak.threshold = ") })
        #expect(listed == "peak.threshold = \(key.value)   (\(key.allowed))")
        #expect(throws: PresetError.self) {
            try PresetEdit.liveKey("peak.nope", in: configuration, pluginHost: lv2Host)
        }
        #expect(throws: PresetError.self) {
            try PresetEdit.liveKey("nope.threshold", in: configuration, pluginHost: lv2Host)
        }
    }
}
