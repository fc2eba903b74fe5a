import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

@testable import VoiceHost

/// `OutputTarget.resolve`: how each kind of path is written.
@Suite struct OutputTargetTests {
    @Test func regularAndNewPathsGoThroughAHiddenTemporary() throws {
        let folder = try TemporaryFolder()
        let wav = try AudioFormat(parsing: "wav")
        let new = try OutputTarget.resolve(folder.file("new.wav"), format: wav)
        #expect(new.writePath.hasPrefix(folder.file(".new.wav.partial-")) && new.writePath.hasSuffix(".wav"))
        FileManager.default.createFile(atPath: new.writePath, contents: Data("x".utf8))
        try new.commit()
        #expect(FileManager.default.fileExists(atPath: folder.file("new.wav")))
        #expect(!FileManager.default.fileExists(atPath: new.writePath))
        let again = try OutputTarget.resolve(folder.file("new.wav"), format: wav)
        FileManager.default.createFile(atPath: again.writePath, contents: Data("y".utf8))
        again.discard()
        #expect(!FileManager.default.fileExists(atPath: again.writePath))
        #expect(try String(contentsOfFile: folder.file("new.wav"), encoding: .utf8) == "x")
    }

    @Test func devicesAndFIFOsAreWrittenInPlace() throws {
        let folder = try TemporaryFolder()
        let null = try OutputTarget.resolve("/dev/null", format: AudioFormat(parsing: "wav"))
        #expect(null.writePath == "/dev/null")
        null.discard()  // must not remove it
        #expect(FileManager.default.fileExists(atPath: "/dev/null"))
        let fifo = folder.file("f")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try OutputTarget.resolve(fifo, format: AudioFormat(parsing: "ogg")).writePath == fifo)
        #expect(throws: HostError.self) { try OutputTarget.resolve(fifo, format: AudioFormat(parsing: "wav")) }
    }
}
