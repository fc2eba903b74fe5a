import Foundation
import Testing
import VoiceTestSupport

/// `voicerack plugins list | show`, run as the built binary against the system's LV2 folder
/// (plugins from swh-lv2, x42-plugins and lsp-plugins-lv2) or a test bundle.
@Suite("voicerack plugins")
struct PluginsCommandTests {
    let system = ["LV2_PATH": "/usr/lib/lv2"]

    @Test("list shows usable plugins with latency and RT capability, not synths")
    func list() throws {
        let r = try CommandRunner.voicerack(["plugins", "list"], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        let lines = r.standardOutput.split(separator: "\n").map(String.init)
        func row(_ uri: String) -> [String]? {
            lines.first { $0.hasPrefix(uri + " ") }.map { $0.split(separator: " ").map(String.init) }
        }
        #expect(row("http://gareus.org/oss/lv2/dpl#mono")?[1...2] == ["64", "yes"])
        #expect(row("http://lsp-plug.in/plugins/lv2/limiter_mono")?[1...2] == ["240", "yes"])
        #expect(row("http://plugin.org.uk/swh-plugins/singlePara")?[1...2] == ["0", "no"])
        #expect(row("http://plugin.org.uk/swh-plugins/gverb") != nil, "mono in, stereo out fits")
        #expect(row("http://plugin.org.uk/swh-plugins/analogueOsc") == nil, "no audio input")
    }

    @Test("show lists control ports with ranges (scaled by the rate), defaults and units")
    func show() throws {
        let r = try CommandRunner.voicerack(
            ["plugins", "show", "http://gareus.org/oss/lv2/dpl#mono", "--rate", "44100"],
            environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        let out = r.standardOutput
        #expect(out.contains("required features: http://lv2plug.in/ns/ext/urid#map"))
        #expect(out.contains("real-time: hard-RT capable"))
        #expect(
            out.range(
                of: #"threshold +Threshold +-10\.\.\.0 +default -1 dB"#, options: .regularExpression)
                != nil, "\(out)")
        // The latency at 44.1 kHz is the one `list` reports at that rate (the look-ahead is in ms).
        let list = try CommandRunner.voicerack(["plugins", "list", "--rate", "44100"], environment: system)
        let row = list.standardOutput.split(separator: "\n").first {
            $0.hasPrefix("http://gareus.org/oss/lv2/dpl#mono ")
        }
        let listed = try #require(row?.split(separator: " ")[1])
        #expect(listed != "64")
        #expect(out.contains("latency: \(listed) samples at 44100 Hz"), "\(out)")
        let eq = try CommandRunner.voicerack(
            ["plugins", "show", "http://plugin.org.uk/swh-plugins/singlePara"], environment: system)
        #expect(eq.standardOutput.contains("0...19200"), "fc's bounds are 0...0.4 × 48 kHz")
        #expect(eq.standardError.contains("not hard-real-time capable"))
    }

    @Test("an unknown URI exits 65 suggesting the near match; a missing URI is a usage error (64)")
    func unknown() throws {
        let r = try CommandRunner.voicerack(
            ["plugins", "show", "http://lsp-plug.in/plugins/lv2/gate_mon"], environment: system)
        #expect(r.status == 65)
        #expect(
            r.standardError.contains("did you mean 'http://lsp-plug.in/plugins/lv2/gate_mono'?"),
            "\(r.standardError)")
        #expect(try CommandRunner.voicerack(["plugins", "show"], environment: system).status == 64)
    }

    @Test("a plugin requiring a made-up feature is left out of list and refused by show with 65")
    func unsupportedFeature() throws {
        let folder = try TemporaryFolder()
        let path = try TestLV2Bundle.build(in: folder)
        let list = try CommandRunner.voicerack(["plugins", "list"], environment: ["LV2_PATH": path])
        #expect(list.status == 0)
        #expect(list.standardOutput.contains(TestLV2Bundle.gainURI))
        #expect(!list.standardOutput.contains(TestLV2Bundle.needsFeatureURI))
        let show = try CommandRunner.voicerack(
            ["plugins", "show", TestLV2Bundle.needsFeatureURI], environment: ["LV2_PATH": path])
        #expect(show.status == 65)
        #expect(
            show.standardError.contains(
                "'\(TestLV2Bundle.needsFeatureURI)' requires the feature \(TestLV2Bundle.madeUpFeature)"),
            "\(show.standardError)")
    }
}
