import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

/// Fuzz: encoded takes (MP3, FLAC, Opus, Ogg Vorbis) of random signals and lengths on tmpfs
/// disks of random small sizes. A take that fills its disk stops with "No space left on device";
/// either way the length it reports, the audio the file decodes to and the length its header
/// claims agree. Another error, an unreadable file holding audio, or lengths that disagree count
/// as crashes. A handful of inputs at most, even under scripts/fuzz.sh: each mounts a disk and
/// encodes seconds of audio.
@Suite struct RecorderDiskFullFuzzTests {
    static let formats = ["mp3:mp3", "flac:pcm16", "opus:opus", "ogg:vorbis"]
    static let sizes = ["16k", "24k", "48k", "96k", "160k"]

    @Test func encodedTakesOnSmallDisksStopTrue() throws {
        let rate = 48_000
        var random = SeededRandom(seed: FuzzTally.seed(35))
        var tally = FuzzTally("encoded takes on a small disk")
        for _ in 0..<min(FuzzTally.budget(6), 24) {
            let format = Self.formats.randomElement(using: &random)!
            let size = Self.sizes.randomElement(using: &random)!
            let seconds = Int.random(in: 1...6, using: &random)
            // Noise most often: it fills a disk, which no encoder packs small.
            let kind = Int.random(in: 0..<4, using: &random)
            let input = "\(format) on \(size), \(seconds) s of \(["noise", "noise", "a tone", "silence"][kind])"
            let folder = try TemporaryFolder()
            guard let mountPoint = try mountSmallDisk(size: size, in: folder) else { break }
            defer { unmountSmallDisk(mountPoint) }
            let signal = (0..<(rate * seconds)).map { i -> Float in
                switch kind {
                case 0, 1: Float.random(in: -0.5...0.5, using: &random)
                case 2: 0.3 * sin(Float(i) * 0.05)
                default: 0
                }
            }
            let spec = try monoSpec(
                mountPoint + "/take.\(format.prefix { $0 != ":" })", rate: rate, format: format)
            let recording = try Recording(spec: spec)
            feed(recording, signal[...])
            recording.finishProducer()
            tally.record(Self.judged(recording.waitUntilFinished(), spec.path, rate: rate, input: input))
        }
        print(tally.summary)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
    }

    /// How a take ended: finished (accepted), stopped by the full disk (a clean error), or a
    /// crash when it says or holds something untrue.
    static func judged(_ result: RecordingResult, _ path: String, rate: Int, input: String) -> FuzzTally.Outcome {
        let reported = result.status.framesWritten
        let message = result.error?.description ?? ""
        if result.status.failed && !message.contains("No space left on device") {
            return .crash("\(input): stopped with \(message)")
        }
        // An encoder's buffers and its first frame aside, the three lengths agree.
        let slack = rate / 4
        guard let decoded = try? AudioFileContents.read(path).frames else {
            return reported < slack ? .cleanError : .crash("\(input): \(reported) frames reported, file unreadable")
        }
        let header = (try? AudioFileStream(path: path).knownFrames) ?? nil
        if abs(reported - decoded) >= slack || header.map({ abs($0 - decoded) >= slack }) == true {
            return .crash("\(input): reported \(reported), decoded \(decoded), header \(header ?? -1) frames")
        }
        return result.status.failed ? .cleanError : .accepted
    }
}
