import Foundation
import Glibc
import Testing
import VoiceControl
import VoiceTestSupport

@testable import VoiceHost

/// Fuzz: mutated NSM client ids and session paths (empty, long, `:`, control characters, NUL,
/// relative, the root spelled many ways and reached through symlinks) through the session check
/// that runs before anything is made. An id it passes that JACK cannot use, or a path it passes
/// whose folder is the root (where `preset.toml` and `recordings` would land), is counted as a
/// crash: the check let through what it exists to stop.
@Suite struct SessionCheckFuzzTests {
    static let ids = ["voicerack.nTEST", "voicerack", "a", String(repeating: "v", count: 63), "nABC-1_2"]
    static let idFragments: [[UInt8]] = [
        ":", "\0", "\n", "\t", "\u{7F}", " ", "é", "日本", String(repeating: "x", count: 64), "voicerack.",
    ].map { Array($0.utf8) }
    static let pathFragments: [[UInt8]] = [
        "/", "//", "/.", "/./", "/..", "..", ".", "\0", "\n", " ", "~", "rootlink", "rootlink/", "/proc/self/root",
        "/proc/self/cwd", String(repeating: "p", count: 300),
    ].map { Array($0.utf8) }

    @Test func theCheckPassesOnlyUsableIdsAndFoldersBelowTheRoot() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("rootlink"), withDestinationPath: "/")
        let paths = [folder.file("session"), folder.file("rootlink"), folder.file("rootlink/.."), "/", "", "/."]
        var random = SeededRandom(seed: FuzzTally.seed(35))
        var tally = FuzzTally("NSM client ids and paths")
        for _ in 0..<FuzzTally.budget(500) {
            let id = ByteMutation.mutated(
                Self.ids.randomElement(using: &random)!, rounds: 2, fragments: Self.idFragments, keepingOneIn: 2,
                &random)
            let path = ByteMutation.mutated(
                paths.randomElement(using: &random)!, rounds: 2, fragments: Self.pathFragments, keepingOneIn: 2,
                &random)
            let session = ManagedSession(path: path, displayName: "s", clientID: id)
            do {
                try LiveRequest.check(session)
            } catch {
                tally.record(.cleanError)
                continue
            }
            if let problem = Self.idProblem(id) ?? Self.pathProblem(path) {
                tally.record(.crash("id \(id.debugDescription), path \(path.debugDescription): \(problem)"))
            } else {
                tally.record(.accepted)
            }
        }
        print(tally.summary)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    }

    /// Why JACK could not take `id` as a client name (its rules, written out again here).
    static func idProblem(_ id: String) -> String? {
        if id.isEmpty || id.utf8.count > 63 { return "passed an id of \(id.utf8.count) bytes" }
        if id.contains(":") { return "passed an id with ':'" }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "passed an id with a control character"
        }
        return nil
    }

    /// Why `path` is no folder for a client: relative, or the root as the kernel resolves it.
    static func pathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "passed a relative path" }
        return resolved(path) == "/" ? "passed a path that is the root" : nil
    }

    /// `path` with symlinks and `..` resolved as the kernel does, as far as it exists.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        guard parent != path, !parent.isEmpty else { return path }
        return (resolved(parent) as NSString).appendingPathComponent(url.lastPathComponent)
    }
}
