import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Inputs whose length libsndfile cannot tell (a truncated Ogg stream, a FLAC whose header was
/// never finished, a WAV arriving through a pipe) as --mic and --ref: read to their end in
/// blocks, never sized from the header's count (which is then SF_COUNT_MAX or a guess).
@Suite("voicerack process: inputs of unknown length")
struct UnknownLengthInputTests {
    let folder: TemporaryFolder
    static let rate = 48_000
    /// 4 s of speech-like signal.
    static let signal = Signals.speechLike(count: 4 * rate, sampleRate: rate, rms: 0.1, seed: 9)

    init() throws { folder = try TemporaryFolder() }

    /// `signal` encoded as `format` into `name`; returns the path.
    func encoded(_ name: String, _ format: String) throws -> String {
        let path = folder.file(name)
        let writer = try AudioFileWriter(
            path: path, format: AudioFormat(parsing: format), sampleRate: Self.rate, channels: 1)
        try writer.write(Self.signal)
        try writer.close()
        return path
    }

    /// The first `fraction` of the file at `path`, as a new file `name` (a stream cut short).
    func truncated(_ path: String, to fraction: Double, as name: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.file(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: cut))
        return cut
    }

    /// A FLAC whose STREAMINFO says "total samples unknown" (0), as after a kill -9 mid-take.
    func flacWithoutLength() throws -> String {
        let path = try encoded("take.flac", "flac:pcm16")
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        // "fLaC", block header (4), block sizes (4), frame sizes (6): then 20 bits rate, 3
        // channels, 5 bits per sample and 36 bits of total samples, ending at byte 25.
        data[21] &= 0xF0
        for i in 22...25 { data[i] = 0 }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func wavMic() throws -> String {
        try TestFiles.wav(folder.file("mic.wav"), [Self.signal], rate: Self.rate)
    }

    @Test(
        "as --mic: processed to the end of what decodes",
        arguments: [
            ("take.ogg", "ogg:vorbis", 0.5), ("take.opus", "opus:opus", 0.5),
            ("take.opus", "opus:opus", 0.8),
        ])
    func truncatedStreamAsMic(name: String, format: String, fraction: Double) throws {
        let mic = try truncated(try encoded(name, format), to: fraction, as: "cut-" + name)
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(["process", "--preset", "raw", "--mic", mic, "--out", out])
        #expect(r.status == 0, "\(r.status): \(r.standardError)")
        let written = try AudioFileContents.read(out)
        // Lossy frames, cut mid-page: some but not all of the 4 s survive.
        #expect(written.frames > Int(Double(Self.signal.count) * fraction * 0.3), "\(written.frames)")
        #expect(written.frames < Self.signal.count)
        #expect(Measure.levelDB(written.channels[0]) > -30)
    }

    @Test("a stream cut inside its headers is refused as data (65), naming the file")
    func streamCutInItsHeaders() throws {
        for fraction in [0.02, 0.1] {
            let mic = try truncated(try encoded("take.ogg", "ogg:vorbis"), to: fraction, as: "cut.ogg")
            let r = try CommandRunner.voicerack([
                "process", "--preset", "raw", "--mic", mic, "--out", folder.file("o.wav"),
            ])
            #expect(r.status == 65, "\(fraction): \(r.status): \(r.standardError)")
            #expect(r.standardError.contains(mic), "\(r.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("o.wav")))
        }
    }

    @Test("a FLAC with no length in its header is read in full, as --mic and as --ref")
    func flacWithoutLengthAsMicAndRef() throws {
        let flac = try flacWithoutLength()
        let out = folder.file("out.wav")
        let asMic = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", flac, "--out", out,
        ])
        #expect(asMic.status == 0, "\(asMic.status): \(asMic.standardError)")
        #expect(try AudioFileContents.read(out).frames == Self.signal.count)
        let asRef = try CommandRunner.voicerack(
            [
                "process", "--preset", "echo-cancel", "--mic", try wavMic(), "--ref", flac, "--out", out,
                "--force",
            ])
        #expect(asRef.status == 0, "\(asRef.status): \(asRef.standardError)")
        #expect(!asRef.standardError.contains("long but"), "\(asRef.standardError)")  // the whole 4 s reference
        #expect(try AudioFileContents.read(out).frames == Self.signal.count)
    }

    @Test("a truncated Opus reference is read to its end and padded on request")
    func truncatedOpusAsRef() throws {
        let ref = try truncated(try encoded("far.opus", "opus:opus"), to: 0.5, as: "cut.opus")
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(
            [
                "process", "--preset", "echo-cancel", "--mic", try wavMic(), "--ref", ref, "--out", out,
                "--allow-length-mismatch",
            ])
        #expect(r.status == 0, "\(r.status): \(r.standardError)")
        #expect(r.standardError.contains("reference padded/cut to the mic's length"))
        #expect(try AudioFileContents.read(out).frames == Self.signal.count)
    }

    @Test("a WAV piped through /dev/stdin is read in bounded memory")
    func wavFromAPipe() throws {
        // sox writes a pipe's WAV header with a placeholder length (~2^31 bytes); the reader
        // must not size its buffer from it. GNU time reports the peak resident set in KiB.
        let out = folder.file("out.wav")
        let rss = folder.file("rss")
        let script = """
            sox -n -r 48000 -c 1 -b 16 -t wav - synth 3 sine 440 vol 0.3 \
            | /usr/bin/time -f %M -o '\(rss)' '\(CommandRunner.voicerack)' process --preset raw --mic /dev/stdin --out '\(out)'
            """
        let r = try CommandRunner.run("/bin/sh", ["-c", script])
        #expect(r.status == 0, "\(r.status): \(r.standardError)")
        #expect(try AudioFileContents.read(out).frames == 3 * 48_000)
        let peakKiB =
            Int(try String(contentsOfFile: rss, encoding: .utf8).split(separator: "\n").last ?? "")
            ?? .max
        #expect(peakKiB < 150_000, "peak resident set \(peakKiB) KiB for a 3 s clip")
    }
}
