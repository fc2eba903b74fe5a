import Foundation
import Testing
import VoiceFiles
import VoiceLoudness
import VoiceTestSupport

/// The meter on EBU's own test signals: Tech 3341 (loudness, true peak) and Tech 3342 (loudness
/// range), made with sox from their published definitions, read by voicerack (libebur128) and
/// by ffmpeg's `ebur128` filter (its own implementation of BS.1770), and held to the values the
/// documents state.
@Suite(
    "EBU R128 loudness against the reference signals",
    .enabled(if: LoudnessTools.available, "sox or ffmpeg is not installed (scripts/install-deps.sh)"))
struct LoudnessReferenceTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// A stereo 1 kHz sine at 48 kHz: `parts` of (seconds, dBFS peak level), one after the other.
    func sine(_ name: String, _ parts: [(seconds: Double, level: Double)]) throws -> String {
        var pieces: [String] = []
        for (i, part) in parts.enumerated() {
            let piece = folder.file("\(name)-\(i).wav")
            try LoudnessTools.sox([
                "-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", piece, "synth", "\(part.seconds)",
                "sine", "1000", "vol", "\(part.level)dB",
            ])
            pieces.append(piece)
        }
        let path = folder.file("\(name).wav")
        try LoudnessTools.sox(pieces + [path])
        return path
    }

    func meter(_ path: String) throws -> LoudnessReading { try LoudnessNormaliser.measure(path) }

    @Test(
        "Tech 3341 cases 1-5: integrated loudness -23.0 / -33.0 LUFS as stated, within 0.1 LU of ffmpeg",
        arguments: [
            ("3341-1", [(20.0, -23.0)], -23.0),
            ("3341-2", [(20.0, -33.0)], -33.0),
            ("3341-3", [(10.0, -36.0), (60.0, -23.0), (10.0, -36.0)], -23.0),
            ("3341-4", [(10.0, -72.0), (10.0, -36.0), (60.0, -23.0), (10.0, -36.0), (10.0, -72.0)], -23.0),
            ("3341-5", [(20.0, -26.0), (20.1, -20.0), (20.0, -26.0)], -23.0),
        ])
    func integrated(name: String, parts: [(Double, Double)], stated: Double) throws {
        let path = try sine(name, parts.map { (seconds: $0.0, level: $0.1) })
        let ours = try #require(try meter(path).integrated)
        let theirs = try FFmpegLoudness.read(path)
        #expect(abs(ours - stated) <= 0.1, "voicerack read \(ours) LUFS")
        #expect(abs(ours - theirs.integrated) <= 0.1, "voicerack \(ours), ffmpeg \(theirs.integrated) LUFS")
        // A 1 kHz sine's true peak is its crest: the loudest part's level.
        let peak = try #require(try meter(path).truePeak)
        let loudest = parts.map(\.1).max()!
        #expect(
            abs(peak - loudest) <= 0.1 && abs(peak - theirs.truePeak) <= 0.1,
            "voicerack \(peak), ffmpeg \(theirs.truePeak) dBTP")
    }

    @Test(
        "Tech 3342 cases 1-4: loudness range 10, 5, 20 and 15 LU as stated (±1 LU), within 0.1 LU of ffmpeg",
        arguments: [
            ("3342-1", [(20.0, -20.0), (20.0, -30.0)], 10.0),
            ("3342-2", [(20.0, -20.0), (20.0, -15.0)], 5.0),
            ("3342-3", [(20.0, -40.0), (20.0, -20.0)], 20.0),
            ("3342-4", [(20.0, -50.0), (20.0, -35.0), (20.0, -20.0), (20.0, -35.0), (20.0, -50.0)], 15.0),
        ])
    func range(name: String, parts: [(Double, Double)], stated: Double) throws {
        let path = try sine(name, parts.map { (seconds: $0.0, level: $0.1) })
        let ours = try #require(try meter(path).range)
        let theirs = try FFmpegLoudness.read(path)
        #expect(abs(ours - stated) <= 1, "voicerack read \(ours) LU")
        #expect(abs(ours - theirs.range) <= 0.1, "voicerack \(ours), ffmpeg \(theirs.range) LU")
    }

    @Test("true peak: a sine at a quarter of the rate sampled 45° off its crest reads 3 dB over its samples")
    func truePeakBetweenSamples() throws {
        // Samples land at ±0.707 of the crest: the sample peak is -9.0 dBFS, the true peak -6.0 dBTP.
        let path = folder.file("tp.wav")
        try LoudnessTools.sox([
            "-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", path, "synth", "5", "sine", "12000",
            "0", "12.5", "vol", "0.5",
        ])
        let samples = try AudioFileContents.read(path).channels[0]
        let samplePeak = 20 * log10(Double(samples.map(abs).max()!))
        let ours = try #require(try meter(path).truePeak)
        #expect(abs(samplePeak - -9.03) < 0.05, "sample peak \(samplePeak)")
        // Tech 3341's true-peak tolerance: +0.2 / -0.4 dB. (ffmpeg's ebur128 reads this extreme
        // signal 0.6 dB high, so it is compared on the 1 kHz cases instead.)
        #expect((-6.02 - 0.4)...(-6.02 + 0.2) ~= ours, "true peak \(ours) dBTP")
    }

    @Test("silence has no loudness and no peak; a meter fed in blocks reads what one pass reads")
    func silenceAndBlocks() throws {
        let silent = try TestFiles.wav(folder.file("silent.wav"), [[Float](repeating: 0, count: 48_000)], rate: 48_000)
        #expect(try meter(silent) == LoudnessReading(integrated: nil, range: nil, truePeak: nil))
        let tone = Signals.sine(count: 480_000, frequency: 1_000, sampleRate: 48_000, amplitude: 0.1)
        let whole = try #require(LoudnessMeter(channels: 1, sampleRate: 48_000))
        whole.add(tone)
        let blocks = try #require(LoudnessMeter(channels: 1, sampleRate: 48_000))
        for start in stride(from: 0, to: tone.count, by: 333) {
            blocks.add(Array(tone[start..<min(start + 333, tone.count)]))
        }
        let wholeLoudness = try #require(whole.integrated)
        #expect(blocks.integrated == wholeLoudness)
        // A mono 1 kHz sine at -20 dBFS peak: one channel, so 3 LU under the stereo figure (-23).
        #expect(abs(wholeLoudness - -23.0) < 0.1, "\(wholeLoudness)")
    }
}

/// sox and ffmpeg, as the tests run them.
enum LoudnessTools {
    static let sox = ["/usr/bin/sox"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { sox != nil && FFmpegLoudness.path != nil }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func sox(_ arguments: [String]) throws {
        let r = try CommandRunner.run(sox!, arguments)
        guard r.status == 0 else { throw Failure(description: "sox \(arguments): \(r.standardError)") }
    }

}
