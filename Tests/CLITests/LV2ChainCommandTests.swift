import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// LV2 units in a preset's chain, run as the built binary: `process` output stays sample-aligned
/// with the input (the plugin's latency compensated), controls take effect by the expected dB,
/// and bad plugin sections are refused with file:line and exit 65.
@Suite("LV2 units in the chain (voicerack process, presets check)")
struct LV2ChainCommandTests {
    let folder: TemporaryFolder
    let system = ["LV2_PATH": "/usr/lib/lv2"]
    let dpl = "http://gareus.org/oss/lv2/dpl#mono"

    init() throws { folder = try TemporaryFolder() }

    /// A preset file running x42's dpl (64 samples of look-ahead) alone, with `controls`.
    func dplPreset(_ controls: String) throws -> String {
        let path = folder.file("dpl.toml")
        try "[chain]\norder = \"peak\"\n\n[peak]\nlv2 = \"\(dpl)\"\n\(controls)\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "process with an LV2 unit is sample-aligned with the input, and its gain control measures as set",
        arguments: [(256, Float(0)), (100, Float(0)), (256, Float(-6))])
    func processIsAlignedAndMeasured(block: Int, gainDB: Float) throws {
        let rate = 48_000
        // Speech-like at -26 dBFS RMS: peaks stay below the limiter's 0 dBFS threshold.
        let x = Signals.speechLike(count: rate * 2, sampleRate: rate, rms: 0.05, seed: 23)
        let mic = try TestFiles.wav(folder.file("mic.wav"), [x], rate: rate)
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(
            [
                "process", "--preset", try dplPreset("threshold = 0\ngain = \(gainDB)"), "--mic", mic, "--out", out,
                "--block", "\(block)", "--force",
            ], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardOutput.contains("latency live: 64 samples"), "\(r.standardOutput)")
        let y = try AudioFileContents.read(out).channels[0]
        #expect(y.count == x.count)
        #expect(Measure.lag(of: y, relativeTo: x, maxLag: 200) == 0)
        // Sample by sample: y = g·x with no delay (what is left differs from x by under -60 dB).
        let g = powf(10, gainDB / 20)
        let residual = zip(x, y).map { $0.1 - g * $0.0 }
        let residualDB = Measure.levelDB(residual) - Measure.levelDB(x.map { $0 * g })
        let levelDB = Measure.levelDB(y) - Measure.levelDB(x)
        print("LV2 process block \(block), gain \(gainDB) dB: level \(levelDB) dB, residual \(residualDB) dB")
        #expect(residualDB < -60)
        #expect(abs(levelDB - Double(gainDB)) < 0.05)
    }

    @Test("process with SWH's EQ (+6 dB at 1 kHz) boosts a 1 kHz sine by 6 dB and warns it is not hard-RT capable")
    func equalizerBoost() throws {
        let rate = 48_000
        let x = Signals.sine(count: rate, frequency: 1000, sampleRate: rate, amplitude: 0.1)
        let mic = try TestFiles.wav(folder.file("sine.wav"), [x], rate: rate)
        let preset = folder.file("eq.toml")
        try
            "[chain]\norder = \"eq\"\n[eq]\nlv2 = \"http://plugin.org.uk/swh-plugins/singlePara\"\ngain = 6\nfc = 1000\n"
            .write(toFile: preset, atomically: true, encoding: .utf8)
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(
            ["process", "--preset", preset, "--mic", mic, "--out", out], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardError.contains("is not hard-real-time capable"), "\(r.standardError)")
        let y = try AudioFileContents.read(out).channels[0]
        let gain = Measure.levelDB(y, 4_800..<rate) - Measure.levelDB(x, 4_800..<rate)
        print("LV2 EQ in process: \(gain) dB at 1 kHz")
        #expect(abs(gain - 6) < 0.1)
    }

    @Test(
        "bad LV2 units in a preset are refused with file:line and exit 65",
        arguments: [
            (
                "[chain]\norder = \"peak\"\n[peak]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\nthreshhold = -3\n",
                ":5: LV2 plugin 'http://gareus.org/oss/lv2/dpl#mono' has no input control port 'threshhold' (did you mean 'threshold'?)"
            ),
            (
                "[chain]\norder = \"peak\"\n[peak]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\nthreshold = 3\n",
                ":5: peak.threshold = 3 is out of range; the plugin allows -10...0 dB"
            ),
            (
                "[chain]\norder = \"peak\"\n[peak]\nlv2 = \"http://example.org/no-such-plugin\"\n",
                ":4: no LV2 plugin 'http://example.org/no-such-plugin' is installed"
            ),
            (
                "[chain]\norder = \"gate, peek\"\n[peak]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\n",
                ":2: chain.order: unknown unit 'peek' (did you mean 'peak'?)"
            ),
            (
                "[limiter]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\n",
                ":1: [limiter] is a built-in section; give the LV2 unit a name of its own"
            ),
        ])
    func badUnitsAreRefused(text: String, expected: String) throws {
        let path = folder.file("bad.toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(["presets", "check", path], environment: system)
        #expect(r.status == 65)
        #expect(r.standardError.contains(path + expected), "\(r.standardError)")
    }

    @Test("a plugin requiring a feature voicerack lacks is refused before processing starts (65)")
    func unsupportedFeature() throws {
        let bundles = try TestLV2Bundle.build(in: folder)
        let preset = folder.file("needs.toml")
        try "[chain]\norder = \"x\"\n[x]\nlv2 = \"\(TestLV2Bundle.needsFeatureURI)\"\n".write(
            toFile: preset, atomically: true, encoding: .utf8)
        let mic = try TestFiles.wav(folder.file("mic.wav"), [[Float](repeating: 0.1, count: 4_800)], rate: 48_000)
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(
            ["process", "--preset", preset, "--mic", mic, "--out", out], environment: ["LV2_PATH": bundles])
        #expect(r.status == 65)
        #expect(
            r.standardError.contains(
                "\(preset):4: LV2 plugin '\(TestLV2Bundle.needsFeatureURI)' requires the feature \(TestLV2Bundle.madeUpFeature)"
            ),
            "\(r.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "presets show prints an LV2 unit's controls with the plugin's ranges: set ones as keys, the others as comments")
    func showsPluginControls() throws {
        let r = try CommandRunner.voicerack(["presets", "show", "podcast-lv2"], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        #expect(
            r.standardOutput.contains("[peak]\nlv2 = \"\(dpl)\"\nthreshold = -1  # -10...0 dB; default -1. Threshold\n")
        )
        #expect(r.standardOutput.contains("# gain  # -10...30 dB; default 0. Input Gain\n"), "\(r.standardOutput)")
    }

    @Test("the shipped podcast-lv2 preset checks and processes, with dpl's 64 samples in its latency")
    func shippedPreset() throws {
        let rate = 48_000
        let x = Signals.speechLike(count: rate * 2, sampleRate: rate, rms: 0.1, seed: 9)
        let mic = try TestFiles.wav(folder.file("mic.wav"), [x], rate: rate)
        let out = folder.file("out.wav")
        let plain = try CommandRunner.voicerack(
            ["process", "--preset", "podcast", "--mic", mic, "--out", folder.file("plain.wav")], environment: system)
        let r = try CommandRunner.voicerack(
            ["process", "--preset", "podcast-lv2", "--mic", mic, "--out", out], environment: system)
        #expect(r.status == 0 && plain.status == 0, "\(r.standardError)")
        func latency(_ text: String) -> Int? {
            text.firstMatch(of: /latency live: (\d+) samples/).flatMap { Int($0.1) }
        }
        let (withLV2, without) = (latency(r.standardOutput), latency(plain.standardOutput))
        print("podcast latency \(without ?? -1), podcast-lv2 latency \(withLV2 ?? -1) samples")
        // podcast-lv2 swaps the built-in limiter (240 samples of look-ahead) for dpl (64).
        #expect(withLV2 != nil && without != nil && withLV2! - without! == 64 - 240)
        let y = try AudioFileContents.read(out).channels[0]
        #expect(y.count == x.count)
        #expect(y.map(abs).max()! <= powf(10, -1.0 / 20) * 1.001, "dpl's -1 dBFS threshold holds")
    }
}
