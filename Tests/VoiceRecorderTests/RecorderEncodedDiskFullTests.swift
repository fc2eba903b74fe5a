import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

/// Encoded takes (MP3, FLAC, Opus, Ogg Vorbis) on a disk that fills up: the recording stops
/// with the disk's error, what it reports written is what the file holds, and the file's header
/// claims no more than that.
@Suite("Recorder: encoded formats on a full disk")
struct RecorderEncodedDiskFullTests {
    @Test(
        "a full disk stops an encoded take with its error; the header and the reported length match the audio",
        arguments: ["mp3:mp3", "flac:pcm16", "opus:opus", "ogg:vorbis"])
    func encodedDiskFull(_ format: String) throws {
        let container = String(format.prefix { $0 != ":" })
        let folder = try TemporaryFolder()
        guard let mountPoint = try mountSmallDisk(size: "64k", in: folder) else { return }
        defer { unmountSmallDisk(mountPoint) }
        let rate = 48_000
        let spec = try monoSpec(mountPoint + "/take.\(container)", rate: rate, format: format)
        let recording = try Recording(spec: spec)
        // Noise, so no encoder packs ten seconds into 64 KiB.
        var generator = SystemRandomNumberGenerator()
        let signal = (0..<(rate * 10)).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        feed(recording, signal[...])
        recording.finishProducer()
        let result = recording.waitUntilFinished()

        #expect(result.status.failed, "\(container): \(result.status)")
        let message = result.error?.description ?? ""
        #expect(message.contains(spec.path) && message.contains("No space left on device"), "\(message)")
        let decoded = try AudioFileContents.read(spec.path).frames
        let header = try AudioFileStream(path: spec.path).knownFrames
        let reported = result.status.framesWritten
        print("\(container) on a full disk: reported \(reported), decoded \(decoded), header \(header ?? -1) frames")
        #expect(decoded > 0 && decoded < rate * 10, "\(container): \(decoded) frames decoded")
        // What the summary says was written is what the file holds (an encoder's buffers and
        // its first frame aside).
        #expect(abs(reported - decoded) < rate / 4, "\(container): reported \(reported), decoded \(decoded)")
        if let header {
            #expect(abs(header - decoded) < rate / 4, "\(container): header \(header), decoded \(decoded)")
        }
    }
}
