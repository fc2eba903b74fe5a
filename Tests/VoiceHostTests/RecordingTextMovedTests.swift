import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

@testable import VoiceHost

/// The take's summary line: a file moved away while it recorded is still recorded, and says
/// where its path went; a file that is gone is not.
@Suite struct RecordingTextMovedTests {
    @Test func aMovedTakeIsRecordedAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let spec = RecordingSpec(
            path: folder.file("voice.wav"), format: try AudioFormat(parsing: "wav:float"), sampleRate: 16_000,
            channels: 1)
        let recording = try Recording(spec: spec)
        recording.finishProducer()
        var result = recording.waitUntilFinished()
        result.fileMoved = "\(spec.path) was moved away while recording"
        let moved = RecordingText.summary(.voice, recording, result)
        #expect(moved.hasPrefix("recorded voice to \(spec.path)"), "\(moved)")
        #expect(moved.hasSuffix("; \(spec.path) was moved away while recording"), "\(moved)")
        result.fileMoved = nil
        result.fileProblem = "\(spec.path) was deleted while recording; the audio written to it is gone"
        #expect(RecordingText.summary(.voice, recording, result).hasPrefix("NOT recorded voice: "))
    }
}
