import Foundation
import Testing
import VoiceControl
import VoiceEngine
import VoiceJACK
import VoiceTestSupport

@testable import VoiceHost

/// A session manager's open is checked before anything is made: the client id as `--name` is,
/// the path as a folder below the root.
@Suite struct SessionCheckTests {
    /// Opens `session` with a plain request; returns the failure, or nil when it opened.
    func openFailure(_ session: ManagedSession) -> ManagedSession.OpenFailure? {
        var request = LiveRequest(
            options: JACKDriver.Options(), configuration: EngineConfiguration(), presetName: "raw")
        do {
            _ = try request.open(session)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [String(repeating: "v", count: 64), "a:b", ""])
    func clientIDsThatCannotNameAJACKClientAreRefused(_ id: String) throws {
        let folder = try TemporaryFolder()
        let session = ManagedSession(path: folder.file("session"), displayName: "s", clientID: id)
        let failure = openFailure(session)
        #expect(
            failure?.kind == .general && failure?.message.contains("client id") == true,
            "\(String(describing: failure))")
        #expect(!FileManager.default.fileExists(atPath: session.presetPath), "nothing is made")
    }

    @Test(arguments: ["", "/", "//", "/."])
    func theRootAndAnEmptyPathAreRefused(_ path: String) {
        let failure = openFailure(ManagedSession(path: path, displayName: "s", clientID: "voicerack.nTEST"))
        #expect(
            failure?.kind == .createFailed && failure?.message.contains("not a folder") == true,
            "\(String(describing: failure))")
    }

    @Test(arguments: ["rootlink", "rootlink/", "rootlink/..", "inside/../rootlink", "/proc/self/root", "/\0tmp"])
    func theRootThroughASymlinkOrCutShortByANulIsRefused(_ path: String) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("rootlink"), withDestinationPath: "/")
        try FileManager.default.createDirectory(atPath: folder.file("inside"), withIntermediateDirectories: true)
        let session = ManagedSession(
            path: path.hasPrefix("/") ? path : folder.file(path), displayName: "s", clientID: "voicerack.nTEST")
        // The check alone: where it passes such a path, opening it would write into the root.
        #expect(throws: ManagedSession.OpenFailure.self, "\(path)") { try LiveRequest.check(session) }
    }

    @Test func aRelativePathIsRefused() {
        let path = "relative-session-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let failure = openFailure(ManagedSession(path: path, displayName: "s", clientID: "voicerack.nTEST"))
        #expect(
            failure?.kind == .createFailed && failure?.message.contains("not a folder") == true,
            "\(String(describing: failure))")
    }
}
