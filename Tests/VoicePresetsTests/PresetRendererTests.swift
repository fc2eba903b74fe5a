import Testing
import VoiceEngine

@testable import VoicePresets

/// `presets show`: every key, a comment per key, and the text reads back to the same configuration.
@Suite struct PresetRendererTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()], pluginHost: lv2Host)

    @Test(arguments: ["echo-cancel", "podcast", "raw"])
    func roundTripsShippedPresets(name: String) throws {
        let preset = try library.load(name)
        let temporary = try TemporaryPresets()
        let path = try temporary.write("rendered", PresetRenderer.toml(preset, pluginHost: lv2Host))
        let reread = try library.check(path)
        #expect(reread.configuration == preset.configuration)
        #expect(reread.description == preset.description)
    }

    @Test func roundTripsUnusualValues() throws {
        var configuration = EngineConfiguration()
        configuration.frameMilliseconds = 2.5
        configuration.delayMilliseconds = 0.1
        configuration.inputGainDB = -39.99
        configuration.reference = .stereo
        configuration.delayMode = .fixed
        let preset = Preset(
            name: "odd", description: "quote \" backslash \\ newline \n tab \t bell \u{7}", source: "memory",
            base: "raw", settings: PresetSettings(engine: configuration))
        let temporary = try TemporaryPresets()
        let path = try temporary.write("odd", PresetRenderer.toml(preset, pluginHost: lv2Host))
        let reread = try library.check(path)
        #expect(reread.configuration == configuration)
        #expect(reread.description == preset.description)
        #expect(reread.base == nil)  // the base is folded in, not repeated
    }

    @Test func listsEveryKeyWithItsRange() throws {
        let text = PresetRenderer.toml(try library.load("echo-cancel"), pluginHost: lv2Host)
        for key in PresetSchema.keys
        where PresetRenderer.shows(section: key.section, try library.load("echo-cancel").settings) {
            #expect(text.contains("\(key.name) = \(key.tomlValue(in: try library.load("echo-cancel").settings))"))
            #expect(text.contains("# \(key.allowed). \(key.help)"))
        }
        #expect(text.contains("[echo_canceller]\n"))
        #expect(text.contains("tail_ms = 200"))
        #expect(text.contains("# 20...1000 ms."))
        #expect(text.contains("reference = \"mono\""))
    }
}
