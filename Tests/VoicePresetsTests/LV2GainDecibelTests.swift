import Foundation
import Testing
import VoiceControl
import VoiceEngine

@testable import VoicePresets

/// LV2 ports whose value is a linear gain (LSP's `G`) given in dB in a preset (`al = "-20 dB"`):
/// converted to the linear value the port takes, clamped at its bounds within 0.01 dB, refused
/// farther out with the key and the range in dB; other ports take no dB.
@Suite("LV2 gain ports in dB")
struct LV2GainDecibelTests {
    static let compressor = "http://lsp-plug.in/plugins/lv2/compressor_mono"

    /// The compressor section with `controls`, loaded through the system's plugins.
    func load(_ controls: String) throws(PresetError) -> Preset {
        let temporary: TemporaryPresets
        do {
            temporary = try TemporaryPresets()
            try temporary.write("c", "[chain]\norder = \"comp\"\n\n[comp]\nlv2 = \"\(Self.compressor)\"\n\(controls)\n")
        } catch {
            throw PresetError(file: "", message: "\(error)")
        }
        return try temporary.library.load("c")
    }

    @Test("the host names LSP's G ports as linear gains and nothing else")
    func gainPorts() {
        let ports = lv2Host.linearGainPorts(of: Self.compressor)
        #expect(ports.isSuperset(of: ["al", "kn", "mk", "g_in", "g_out", "rrl", "cdr", "cwt"]), "\(ports.sorted())")
        #expect(!ports.contains("cr") && !ports.contains("at") && !ports.contains("scm"))
        #expect(lv2Host.linearGainPorts(of: "http://gareus.org/oss/lv2/dpl#mono").isEmpty)
        #expect(lv2Host.linearGainPorts(of: "http://example.org/none").isEmpty)
    }

    @Test("dB values become the linear gains 10^(dB/20); numbers stay as written")
    func converted() throws {
        let values = try load(
            "al = \"-20 dB\"\nkn = \"-6dB\"\nmk = \"+3 dB\"\ng_out = \"-inf dB\"\ncdr = \"-40 DB\"\ncr = 4"
        ).configuration.plugins["comp"]!.values
        #expect(values["al"] == 0.1)
        #expect(values["kn"] == Float(pow(10, -6.0 / 20)))
        #expect(values["mk"] == Float(pow(10, 3.0 / 20)))
        #expect(values["g_out"] == 0)
        #expect(values["cdr"] == 0.01)
        #expect(values["cr"] == 4)
    }

    @Test("a bound in dB is clamped within 0.01 dB; farther out is refused with the range in dB")
    func bounds() throws {
        // al allows 0.001...1: -60 dB is its lower bound, whatever the rounding of 10^-3.
        #expect(try load("al = \"-60 dB\"").configuration.plugins["comp"]!.values["al"] == 0.001)
        #expect(try load("al = \"-60.009 dB\"").configuration.plugins["comp"]!.values["al"] == 0.001)
        #expect(try load("al = \"0.009 dB\"").configuration.plugins["comp"]!.values["al"] == 1)
        let below = presetError { () throws(PresetError) in try load("al = \"-60.02 dB\"") }
        #expect(below?.line == 6 && below?.key == "comp.al")
        #expect(
            below?.message
                == "comp.al = \"-60.02 dB\" is out of range; the plugin allows -60...0 dB (0.001...1 as a linear gain)")
        let linear = presetError { () throws(PresetError) in try load("al = 2") }
        #expect(linear?.message == "comp.al = 2 is out of range; the plugin allows 0.001...1 (-60...0 dB)")
    }

    @Test("ports that are not gains take no dB; a gain port takes no other word")
    func refused() {
        let ratio = presetError { () throws(PresetError) in try load("cr = \"3 dB\"") }
        #expect(ratio?.message == "comp.cr must be a number, not \"3 dB\" (dB is for gain and dB ports only)")
        let word = presetError { () throws(PresetError) in try load("al = \"loud\"") }
        #expect(word?.message == "comp.al must be a number or a gain in dB such as \"-20 dB\", not \"loud\"")
        let nan = presetError { () throws(PresetError) in try load("al = \"nan dB\"") }
        #expect(nan?.key == "comp.al")
    }

    @Test("a port already in dB (x42's dpl threshold) takes the same form as its number")
    func decibelPort() throws {
        let temporary = try TemporaryPresets()
        try temporary.write(
            "d",
            "[chain]\norder = \"peak\"\n[peak]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\nthreshold = \"-3 dB\"\n")
        #expect(try temporary.library.load("d").configuration.plugins["peak"]!.values["threshold"] == -3)
    }

    @Test("a live set takes dB too: set comp.al -30dB")
    func liveSet() throws {
        let preset = try load("al = 0.5")
        let changed = try PresetEdit.setting("comp.al", .word("-30dB"), in: preset.settings, pluginHost: lv2Host)
        #expect(changed.engine.plugins["comp"]!.values["al"] == Float(pow(10, -30.0 / 20)))
        #expect(throws: PresetError.self) {
            try PresetEdit.setting("comp.al", .word("-70dB"), in: preset.settings, pluginHost: lv2Host)
        }
    }
}
