import Foundation
import Glibc
import Testing
import VoicePresets
import VoiceTestSupport

@testable import VoiceHost

/// Fuzz: mutated preset names and paths from a remote surface (`..`, symlinks out, NUL bytes,
/// long names, absolute paths, device nodes, FIFOs) through `PresetAccess`, then loaded or saved
/// as the live loop does. Reaching a file outside the preset folders, changing the canary files
/// there, or quoting a canary's contents in an error is a disclosure.
@Suite struct PresetAccessFuzzTests {
    /// What the canaries hold: a key and a value a parse error would quote.
    static let canaryWords = ["Zebra-Canary-41", "Okapi-Canary-77"]
    static let canary = "Zebra-Canary-41 = \"Okapi-Canary-77\"\n"

    let folder: TemporaryFolder
    let user: String
    let shipped: String
    let outside: String

    init() throws {
        folder = try TemporaryFolder()
        (user, shipped, outside) = (folder.file("user"), folder.file("shipped"), folder.file("outside"))
        for path in [user, shipped, outside] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try "description = \"good\"\n".write(toFile: user + "/good.toml", atomically: false, encoding: .utf8)
        try "description = \"raw\"\n".write(toFile: shipped + "/raw.toml", atomically: false, encoding: .utf8)
        // Inside the folder but no preset: its errors reach a remote sender without its contents.
        try Self.canary.write(toFile: user + "/notes.toml", atomically: false, encoding: .utf8)
        try Self.canary.write(toFile: outside + "/secret.toml", atomically: false, encoding: .utf8)
        try Self.canary.write(toFile: outside + "/secret.txt", atomically: false, encoding: .utf8)
        let links = [
            "link.toml": outside + "/secret.toml", "linkdir": outside, "null.toml": "/dev/null",
            "zero.toml": "/dev/zero", "passwd.toml": "/etc/passwd", "dangling.toml": outside + "/absent.toml",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: user + "/" + name, withDestinationPath: target)
        }
        #expect(mkfifo(user + "/fifo.toml", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: user + "/dir.toml", withIntermediateDirectories: false)
    }

    /// Requests a sender might make, before mutation.
    var requests: [String] {
        [
            "good", "raw", "notes", "link", "null", "zero", "fifo", "dir", "passwd", "dangling", "linkdir/secret",
            "../outside/secret", "../outside/secret.toml", outside + "/secret.toml", outside + "/secret.txt",
            user + "/good.toml", user + "/link.toml", user + "/linkdir/secret.toml", user + "/../outside/secret.toml",
            user + "/fifo.toml", user + "/new.toml", "/etc/passwd", "/dev/null", "~/.bashrc", "new",
            String(repeating: "a", count: 300), "a\0b",
        ]
    }

    static let fragments: [[UInt8]] = [
        "../", "/", ".toml", "\0", "..", ".", "//", "~/", "%2e%2e/", "linkdir/", "link", "fifo", " ", "\n", "-",
        String(repeating: "a", count: 5_000), "/dev/", "/proc/self/", "outside/", "secret",
    ].map { Array($0.utf8) }

    @Test func namesReachNothingOutsideThePresetFolders() throws {
        let access = PresetAccess(readable: [user, shipped], writable: [user])
        let library = PresetLibrary(directories: [user, shipped])
        let before = try outsideContents()
        let roots = [user, shipped].compactMap(PresetAccess.realPath)
        var random = SeededRandom(seed: FuzzTally.seed(35))
        var tally = FuzzTally("remote preset names")
        for _ in 0..<FuzzTally.budget(500) {
            let request = ByteMutation.mutated(
                requests.randomElement(using: &random)!, rounds: 2, fragments: Self.fragments, keepingOneIn: 4, &random)
            let outcome =
                Bool.random(using: &random)
                ? load(request, access, library, roots: roots) : save(request, access, roots: Array(roots.prefix(1)))
            if case .disclosure = outcome {
                tally.record(outcome)
            } else if try outsideContents() != before {
                tally.record(.disclosure("\(request.debugDescription): the folder outside changed"))
            } else {
                tally.record(outcome)
            }
        }
        print(tally.summary)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    }

    /// `load REQUEST` as a remote surface makes it: checked, then read with errors shown without
    /// contents.
    func load(_ request: String, _ access: PresetAccess, _ library: PresetLibrary, roots: [String]) -> FuzzTally.Outcome
    {
        let file: String
        do { file = try access.fileToLoad(request) } catch { return judged(error.message, request) }
        guard Self.isInside(file, roots) else { return .disclosure("\(request.debugDescription): read \(file)") }
        do {
            _ = try library.load(file)
            return .accepted
        } catch {
            return judged(error.withoutContents, request)
        }
    }

    /// `save REQUEST` as a remote surface makes it: checked, then written by `PresetFileWriter`.
    func save(_ request: String, _ access: PresetAccess, roots: [String]) -> FuzzTally.Outcome {
        let file: String
        do { file = try access.fileToSave(request) } catch { return judged(error.message, request) }
        guard Self.isInside(file, roots) else { return .disclosure("\(request.debugDescription): wrote \(file)") }
        do {
            try PresetFileWriter.write("description = \"saved\"\n", to: file)
            return .accepted
        } catch {
            return judged(error.message, request)
        }
    }

    /// A clean error, or a disclosure when `message` quotes a canary.
    func judged(_ message: String, _ request: String) -> FuzzTally.Outcome {
        Self.canaryWords.contains { message.contains($0) }
            ? .disclosure("\(request.debugDescription): \(message)") : .cleanError
    }

    static func isInside(_ file: String, _ roots: [String]) -> Bool {
        roots.contains { file.hasPrefix($0 + "/") }
    }

    /// The names and contents of the files outside the preset folders, and the names beside them.
    func outsideContents() throws -> [String: String] {
        var contents: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) { contents["beside " + name] = "" }
        for name in try FileManager.default.contentsOfDirectory(atPath: outside) {
            contents[name] = try String(contentsOfFile: outside + "/" + name, encoding: .utf8)
        }
        return contents
    }
}
