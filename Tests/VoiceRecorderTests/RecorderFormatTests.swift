import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

@Suite("Recorder formats and failures")
struct RecorderFormatTests {
    /// Allowed difference per encoding: half a step of the integer formats, exact for floats.
    static func tolerance(_ encoding: String) -> Float? {
        switch encoding {
        case "pcm16": return 1.0 / 32768
        case "pcm24": return 1.0 / 8_388_608 * 2
        case "pcm32", "float", "double": return 1e-6
        default: return nil  // lossy codecs
        }
    }

    @Test("every format this libsndfile writes round-trips through the recorder")
    func roundTrips() throws {
        let formats = AudioFormat.writableFormats()
        #expect(formats.count >= 20, "\(formats)")
        for name in [
            "wav:float", "wav:pcm16", "wav:pcm24", "rf64:float", "w64:float", "caf:float", "flac:pcm24", "ogg:vorbis",
            "opus:opus", "mp3:mp3",
        ] {
            #expect(formats.contains(try AudioFormat(parsing: name)), "\(name) not writable here")
        }
        let folder = try TemporaryFolder()
        let rate = 48_000
        let signal = Signals.sine(count: rate, frequency: 441, sampleRate: rate, amplitude: 0.5)
        for (i, format) in formats.enumerated() {
            let path = folder.file("f\(i).\(format.container)")
            let recording = try Recording(
                spec: RecordingSpec(path: path, format: format, sampleRate: rate, channels: 1))
            feed(recording, signal[...])
            recording.finishProducer()
            let result = recording.waitUntilFinished()
            #expect(result.error == nil, "\(format): \(String(describing: result.error))")
            let back = try AudioFileContents.read(path)
            #expect(back.sampleRate == rate)
            if let tolerance = Self.tolerance(format.encoding) {
                #expect(back.frames == signal.count, "\(format)")
                let worst = zip(back.channels[0], signal).map { abs($0 - $1) }.max() ?? 1
                #expect(worst <= tolerance, "\(format): worst difference \(worst)")
            } else {
                // Codecs add delay and shape the signal: the tone's level must survive.
                #expect(abs(back.frames - signal.count) < rate / 10, "\(format): \(back.frames) frames")
                let level = Measure.levelDB(back.channels[0], (rate / 4)..<(rate / 2))
                #expect(abs(level - Measure.levelDB(signal)) < 1.5, "\(format): level \(level) dB")
            }
        }
    }

    @Test("a full disk stops the recording with a message; what was written stays readable")
    func diskFull() throws {
        let folder = try TemporaryFolder()
        guard let mountPoint = try mountSmallDisk(size: "256k", in: folder) else { return }
        defer { unmountSmallDisk(mountPoint) }
        let spec = try monoSpec(mountPoint + "/voice.wav", rate: 48_000)
        let recording = try Recording(spec: spec)
        feed(recording, indexSignal(48_000 * 3)[...])  // 576 kB of float samples for 256 kB
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        #expect(result.status.failed)
        let message = result.error?.description ?? ""
        #expect(message.contains(spec.path) && message.contains("No space left on device"), "\(message)")
        let file = try AudioFileContents.read(spec.path)
        #expect(file.frames > 48_000 / 2 && file.frames < 48_000 * 3)
        #expect(file.channels[0] == Array(indexSignal(file.frames)))
    }
}
