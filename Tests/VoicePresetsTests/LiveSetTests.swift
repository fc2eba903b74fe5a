import Testing
import VoiceControl
import VoiceEngine

@testable import VoicePresets

/// `set KEY VALUE` checked against the key's own type, with no preset text written and read
/// back: a typed number (OSC's `f`) and the same number typed as a word land on the same field,
/// and refusals say what a preset line's would.
@Suite struct LiveSetTests {
    func set(_ key: String, _ value: LiveValue) throws(PresetError) -> PresetSettings {
        try PresetEdit.setting(key, value, in: PresetSettings(), pluginHost: lv2Host)
    }

    func refusal(_ key: String, _ value: LiveValue) -> String? {
        do {
            _ = try set(key, value)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a number, a switch and a choice reach their fields, typed or as words")
    func typedAndWordsAgree() throws {
        let compressor = EffectKind.compressor
        let threshold = try #require(compressor.parameters.firstIndex { $0.id == "threshold_dbfs" })
        for value: LiveValue in [.number(-18), "-18", .number(Double(Float(-18.5))), "-18.5"] {
            let expected: Float = value.description == "-18" ? -18 : -18.5
            let s = try set("compressor.threshold_dbfs", value)
            #expect(s.engine.effectValues[compressor.index][threshold] == expected, "\(value)")
        }
        #expect(try set("ducking.enabled", .boolean(true)).engine.ducking)
        #expect(try set("ducking.enabled", "true").engine.ducking)
        #expect(try set("monitor.source", "processed").engine.monitorSource == .processed)
        #expect(try set("monitor.source", "\"processed\"").engine.monitorSource == .processed)
        #expect(try set("backing.level_db", .number(-12)).session.backingLevelDB == -12)
        #expect(try set("chain.order", "gate, compressor").engine.effectOrder == [.gate, .compressor])
    }

    @Test("refusals name the key and what it allows, as a preset line's do")
    func refusalsAsInPresets() {
        let range = "compressor.threshold_dbfs = -70 is out of range; allowed -60...0 dBFS"
        #expect(refusal("compressor.threshold_dbfs", .number(-70)) == range)
        #expect(refusal("compressor.threshold_dbfs", "-70") == range)
        #expect(refusal("ducking.enabled", .number(1)) == "ducking.enabled must be true or false, not 1")
        #expect(refusal("input.gain_db", "loud") == "input.gain_db must be a number (-40...40 dB), not \"loud\"")
        #expect(
            refusal("monitor.sauce", "dry")?.hasPrefix("unknown key 'monitor.sauce' (did you mean 'source'?)") == true)
        #expect(
            refusal("moniter.source", "dry")?.hasPrefix("unknown section [moniter] (did you mean [monitor]?)") == true)
        #expect(refusal("stream.name", "a\nb")?.contains("must be one line") == true)
        // A word that is no number is a string to the key, as unquoted text in a preset is not.
        #expect(refusal("input.gain_db", "-6 7") == "input.gain_db must be a number (-40...40 dB), not \"-6 7\"")
        #expect(refusal("monitor.source", "\"dry") != nil)
    }
}
