import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run --osc` and `NSM_URL`: bad settings are refused before any server is needed.
@Suite("voicerack run: OSC and NSM settings")
struct RunControlSurfaceTests {
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandRunner.Result {
        try CommandRunner.voicerack(
            ["run", "--preset", "raw", "--no-auto-connect", "--server", "voicerack-none-\(getpid())"] + arguments,
            environment: environment)
    }

    @Test("--osc out of range and --osc-host without --osc are usage errors (64)")
    func badOSCOptions() throws {
        let port = try run(["--osc", "70000"])
        #expect(port.status == 64, "\(port.standardError)")
        #expect(port.standardError.contains("--osc 70000 is not a UDP port; use 1-65535"), "\(port.standardError)")
        let host = try run(["--osc-host", "0.0.0.0"])
        #expect(host.status == 64, "\(host.standardError)")
        #expect(host.standardError.contains("--osc-host needs --osc PORT"), "\(host.standardError)")
        let unresolvable = try run(["--osc", "0", "--osc-host", "no-such-host.invalid"])
        #expect(unresolvable.status == 69, "\(unresolvable.standardError)")
        #expect(unresolvable.standardError.contains("--osc: cannot resolve 'no-such-host.invalid'"))
    }

    @Test("OSC beyond loopback needs --osc-secret-file (64); a short secret is refused without being quoted")
    func oscSecretOptions() throws {
        let wide = try run(["--osc", "0", "--osc-host", "0.0.0.0"])
        #expect(wide.status == 64, "\(wide.standardError)")
        #expect(wide.standardError.contains("give --osc-secret-file FILE too"), "\(wide.standardError)")
        let alone = try run(["--osc-secret-file", "/nonexistent"])
        #expect(alone.status == 64 && alone.standardError.contains("--osc-secret-file needs --osc PORT"))
        let file = NSTemporaryDirectory() + "voicerack-short-secret-\(getpid())"
        try Data("Hunter2\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let short = try run(["--osc", "0", "--osc-secret-file", file])
        #expect(short.status == 64, "\(short.standardError)")
        #expect(short.standardError.contains("must hold 8 to 256 bytes; it holds 7"), "\(short.standardError)")
        #expect(!(short.standardError + short.standardOutput).contains("Hunter2"))
    }

    @Test("NSM_URL that is not an OSC address is a usage error (64)")
    func badNSMURL() throws {
        let r = try run([], environment: ["NSM_URL": "http://localhost:80/"])
        #expect(r.status == 64, "\(r.standardError)")
        #expect(r.standardError.contains("NSM_URL 'http://localhost:80/' is not an OSC address (osc.udp://HOST:PORT/)"))
    }
}
