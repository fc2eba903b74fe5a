import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Fuzz: audio files of every container voicerack reads, their headers corrupted (random bytes,
/// 32-bit fields set to extremes, cut short), given to `voicerack process` as --mic, --ref and
/// --backing in turn. Every run must end in 0 or a sysexits code (65, 66 ...), never by a
/// signal or a hang.
@Suite("fuzz: corrupted audio headers through process")
struct AudioHeaderFuzzTests {
    static let formats = [
        "wav:float", "wav:pcm16", "wavex:pcm24", "w64:float", "rf64:pcm16", "caf:float", "aiff:pcm24", "flac:pcm16",
        "ogg:vorbis",
    ]

    @Test("corrupted --mic, --ref and --backing files end cleanly")
    func corruptedHeaders() throws {
        let folder = try TemporaryFolder()
        let rate = 16_000
        let signal = Signals.speechLike(count: rate / 2, sampleRate: rate, rms: 0.1, seed: 11)
        var originals: [(name: String, bytes: [UInt8])] = []
        for format in Self.formats {
            let parsed = try AudioFormat(parsing: format)
            let path = folder.file("base-\(format.replacingOccurrences(of: ":", with: "-")).\(parsed.fileExtension)")
            let writer = try AudioFileWriter(path: path, format: parsed, sampleRate: rate, channels: 1)
            try writer.write(signal)
            try writer.close()
            originals.append(
                ((path as NSString).lastPathComponent, Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        let good = try TestFiles.wav(folder.file("good.wav"), [signal], rate: rate)
        var random = SeededRandom(seed: Mutate.seed)
        var tally = FuzzTally("corrupted audio headers")
        let roles = ["--mic", "--ref", "--backing"]
        for i in 0..<FuzzTally.budget(90) {
            let original = originals.randomElement(using: &random)!
            let header = 0..<min(512, original.bytes.count)
            let bytes: [UInt8]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes = ByteMutation.flipBytes(original.bytes, in: header, &random)
            case 1: bytes = Mutate.extremeField(original.bytes, in: header, &random)
            default:
                bytes = Array(
                    original.bytes.prefix(Int.random(in: 0..<min(2_048, original.bytes.count), using: &random)))
            }
            let bad = folder.file("bad-\(i)-" + original.name)
            try Data(bytes).write(to: URL(fileURLWithPath: bad))
            let role = roles[i % roles.count]
            var arguments = [
                "process", "--preset", "echo-cancel", "--out", folder.file("out.wav"), "--force",
                "--allow-length-mismatch", "-q",
            ]
            arguments += role == "--mic" ? ["--mic", bad, "--ref", good] : ["--mic", good, role, bad]
            let r = try Mutate.voicerack(arguments)
            tally.record(
                status: r.status == 124 ? 124 : r.status, signaled: r.signaled || r.status == 124,
                input: "\(role) \(bad): \(r.standardError.prefix(300))")
            if FuzzTally.isClean(status: r.status, signaled: r.signaled) && r.status != 0 {
                // A clean refusal names the file at fault.
                #expect(
                    r.standardError.contains(bad) || r.standardError.contains(good),
                    "\(role) \(bad): \(r.standardError)")
            }
        }
        print(tally.summary)
        #expect(tally.crashes.isEmpty, "\(tally.crashes.prefix(3))")
    }
}
