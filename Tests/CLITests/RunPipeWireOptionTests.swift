import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run`'s PipeWire options refuse what cannot work (64, saying why) before any JACK
/// server is asked.
@Suite("voicerack run: PipeWire options")
struct RunPipeWireOptionTests {
    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.voicerack(["run", "--preset", "raw", "--server", "voicerack-none-\(getpid())"] + arguments)
    }

    @Test(
        "the node names and --make-default need --pipewire",
        arguments: [["--make-default"], ["--pipewire-mic", "my-mic"], ["--pipewire-call", "my-call"]])
    func needPipeWire(arguments: [String]) throws {
        let r = try run(arguments)
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("--make-default, --pipewire-mic and --pipewire-call need --pipewire"))
    }

    @Test("--pipewire and --no-auto-connect exclude each other; the two nodes are two")
    func conflicts() throws {
        let both = try run(["--pipewire", "--no-auto-connect"])
        #expect(both.status == 64, "\(both.status): \(both.standardError.prefix(300))")
        #expect(both.standardError.contains("--pipewire links ports; --no-auto-connect links none"))
        let same = try run(["--pipewire", "--pipewire-mic", "n", "--pipewire-call", "n"])
        #expect(same.status == 64, "\(same.status): \(same.standardError.prefix(300))")
        #expect(same.standardError.contains("--pipewire-mic and --pipewire-call name one node"))
    }

    @Test(
        "a preset's pipewire.enabled stands in for --pipewire: the node names and --make-default are taken, and the run goes on to look for its server (69)"
    )
    func presetEnables() throws {
        let folder = try TemporaryFolder()
        let preset = folder.file("desk.toml")
        try "base = \"raw\"\n[pipewire]\nenabled = true\n".write(toFile: preset, atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(
            [
                "run", "--preset", preset, "--server", "voicerack-none-\(getpid())", "--pipewire-mic", "my-mic",
                "--make-default",
            ])
        #expect(r.status == 69, "\(r.status): \(r.standardError.prefix(300))")
    }
}
