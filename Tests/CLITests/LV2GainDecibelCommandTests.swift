import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// An LSP compressor's threshold given in dB in a preset (`al = "-20 dB"`, the port itself
/// linear: 0.1), run by the built binary: gain reduction starts at that level, and bad dB values
/// are refused by `presets check` with file:line, the key and exit 65.
@Suite("LV2 gain ports in dB (voicerack process, presets check)")
struct LV2GainDecibelCommandTests {
    let folder: TemporaryFolder
    let system = ["LV2_PATH": "/usr/lib/lv2"]
    static let compressor = "http://lsp-plug.in/plugins/lv2/compressor_mono"
    /// The tone's RMS levels, dBFS: 0.5 s each, rising, so the compressor settles on each.
    static let levels = Array(stride(from: -40.0, through: -6.0, by: 2.0))
    static let rate = 48_000
    static let segment = rate / 2

    init() throws { folder = try TemporaryFolder() }

    /// `raw` (nothing else touches the voice) with LSP's compressor alone: threshold `threshold`
    /// as written, ratio 4, a hard knee and no makeup (both in dB too), RMS sidechain (its
    /// default), attack 0 and release 20 ms.
    func preset(_ name: String, threshold: String) throws -> String {
        let path = folder.file("\(name).toml")
        try """
        base = "raw"
        [chain]
        order = "comp"
        [comp]
        lv2 = "\(Self.compressor)"
        al = \(threshold)
        cr = 4
        kn = "0 dB"
        mk = "0 dB"
        at = 0
        rt = 20
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A 1 kHz tone stepping through `levels` (RMS dBFS).
    static var steps: [Float] {
        levels.flatMap { level in
            Signals.sine(
                count: segment, frequency: 1000, sampleRate: rate,
                amplitude: Float(pow(10, level / 20) * 2.squareRoot()))
        }
    }

    /// `process` of the steps with `preset`: each step's gain (output over input level, dB) over
    /// its settled second half.
    func measure(_ preset: String, out: String) throws -> (gains: [Double], samples: [Float]) {
        let x = Self.steps
        let mic = try TestFiles.wav(folder.file("steps.wav"), [x], rate: Self.rate)
        let r = try CommandRunner.voicerack(
            ["process", "--preset", preset, "--mic", mic, "--out", out, "--force"], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        let y = try AudioFileContents.read(out).channels[0]
        try #require(y.count == x.count)
        let gains = Self.levels.indices.map { i in
            let settled = (i * Self.segment + Self.segment / 2)..<((i + 1) * Self.segment)
            return Measure.levelDB(y, settled) - Measure.levelDB(x, settled)
        }
        return (gains, y)
    }

    @Test(
        "al = \"-20 dB\" (and -32 dB): a tone below the threshold passes, above it is reduced by (level - threshold)(1 - 1/4)",
        arguments: [-20.0, -32.0])
    func thresholdMeasuresAtItsDecibels(threshold: Double) throws {
        let (gains, samples) = try measure(
            try preset("db", threshold: "\"\(PresetText.number(threshold)) dB\""), out: folder.file("db.wav"))
        for (level, gain) in zip(Self.levels, gains) {
            print("LSP compressor, threshold \(threshold) dB: tone at \(level) dBFS RMS, gain \(gain) dB")
        }
        // Below the threshold: no reduction.
        for (level, gain) in zip(Self.levels, gains) where level <= threshold - 2 {
            #expect(abs(gain) < 0.1, "\(level) dBFS: \(gain) dB")
        }
        // Above it: the reduction grows 0.75 dB per dB; the line through those points crosses
        // 0 dB of reduction at the threshold.
        let above = zip(Self.levels, gains).filter { $0.1 < -0.5 }
        try #require(above.count >= 4)
        let meanLevel = above.map(\.0).reduce(0, +) / Double(above.count)
        let meanGain = above.map(\.1).reduce(0, +) / Double(above.count)
        let slope =
            above.map { ($0.0 - meanLevel) * ($0.1 - meanGain) }.reduce(0, +)
            / above.map { ($0.0 - meanLevel) * ($0.0 - meanLevel) }.reduce(0, +)
        let onset = meanLevel - meanGain / slope
        print(
            "LSP compressor, threshold \(threshold) dB in the preset: reduction starts at \(onset) dBFS, slope \(slope)"
        )
        #expect(abs(onset - threshold) < 1, "reduction starts at \(onset) dBFS")
        #expect(abs(slope + 0.75) < 0.05, "slope \(slope)")
        // The same threshold as the port's linear value gives the same samples.
        let linear = Float(pow(10, threshold / 20))
        let (_, same) = try measure(try preset("linear", threshold: "\(linear)"), out: folder.file("linear.wav"))
        #expect(same == samples)
    }

    @Test(
        "bad dB values are refused with file:line, the key and the range in dB (exit 65)",
        arguments: [
            (
                "al = \"-80 dB\"",
                ":5: comp.al = \"-80 dB\" is out of range; the plugin allows -60...0 dB (0.001...1 as a linear gain)"
            ),
            ("cr = \"3 dB\"", ":5: comp.cr must be a number, not \"3 dB\" (dB is for gain and dB ports only)"),
            ("al = \"loud\"", ":5: comp.al must be a number or a gain in dB such as \"-20 dB\", not \"loud\""),
        ])
    func badValuesAreRefused(line: String, expected: String) throws {
        let path = folder.file("bad.toml")
        try "[chain]\norder = \"comp\"\n[comp]\nlv2 = \"\(Self.compressor)\"\n\(line)\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(["presets", "check", path], environment: system)
        #expect(r.status == 65)
        #expect(r.standardError.contains(path + expected), "\(r.standardError)")
    }

    @Test("plugins show and presets show give a gain port's range in dB beside the linear one")
    func shownInDecibels() throws {
        let r = try CommandRunner.voicerack(
            ["presets", "show", try preset("shown", threshold: "\"-20 dB\"")], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardOutput.contains("\nal = 0.1  # 0.001...1 (-60...0 dB); default 0.25119. Attack threshold\n"))
        #expect(r.standardOutput.contains("\nkn = 1  # 0.0631...1 (-24...0 dB); default 0.50118. Knee\n"))
    }
}

/// Numbers as a preset writes them: `-20`, `-32.5`.
private enum PresetText {
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
