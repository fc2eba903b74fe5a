import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

/// A file deleted or replaced while it records holds none of the take: the result says so
/// instead of reporting the seconds as recorded.
@Suite("Recorder: the file vanishes while recording")
struct RecorderVanishedFileTests {
    /// Records 1 s, does `mischief` to the path, records 1 s more; returns the result.
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func record(
        at path: String? = nil, _ mischief: (String) throws -> Void
    ) throws -> (RecordingResult, String) {
        let spec = try monoSpec(path ?? folder.file("voice.wav"))
        let recording = try Recording(spec: spec)
        let signal = indexSignal(32_000)
        feed(recording, signal[0..<16_000])
        try mischief(spec.path)
        feed(recording, signal[16_000...])
        recording.finishProducer()
        return (recording.waitUntilFinished(), spec.path)
    }

    @Test func deletedFileIsReported() throws {
        let (result, path) = try record { try FileManager.default.removeItem(atPath: $0) }
        #expect(result.fileProblem == "\(path) was deleted while recording; the audio written to it is gone")
        #expect(result.status.framesWritten == 32_000)
    }

    @Test func replacedFileIsReported() throws {
        let (result, path) = try record { path in
            try FileManager.default.removeItem(atPath: path)
            FileManager.default.createFile(atPath: path, contents: Data("someone else's".utf8))
        }
        #expect(
            result.fileProblem
                == "\(path) was replaced by another file while recording; the audio written to it is gone")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
    }

    @Test func aFileWhoseFolderWasMovedIsReportedMovedNotGone() throws {
        let takes = folder.file("takes")
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let (result, path) = try record(at: takes + "/voice.wav") { _ in
            try FileManager.default.moveItem(atPath: takes, toPath: folder.file("moved"))
        }
        #expect(result.fileProblem == nil, "\(result.fileProblem ?? "")")
        #expect(
            result.fileMoved
                == "\(path) was moved away while recording (the file or its folder renamed); the audio went on into it at its new place"
        )
        #expect(try AudioFileContents.read(folder.file("moved") + "/voice.wav").frames == 32_000)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func untouchedFileHasNoProblem() throws {
        let (result, path) = try record { _ in }
        #expect(result.fileProblem == nil)
        #expect(try AudioFileContents.read(path).frames == 32_000)
    }
}
