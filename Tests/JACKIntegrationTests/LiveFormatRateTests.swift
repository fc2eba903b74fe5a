import Foundation
import Testing
import VoiceTestSupport

/// A recording format the server's rate does not allow (Opus at 44.1 kHz) is a usage error
/// (64) naming the format and the rates it takes, found before any file is opened: no 0-byte
/// file, no hidden temporary named.
extension LiveClientTests {
    @Test("--record take.opus on a 44.1 kHz server exits 64 naming the rates, leaving no file")
    func opusAtAServerRateItCannotTake() throws {
        let server = try JACKServer(rate: 44_100)
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Tools.voicerack)
        let child = try ChildProcess(
            binary,
            [
                "run", "--server", server.name, "--name", "vr-rate", "--no-auto-connect", "--preset", "raw",
                "--record", folder + "/take.opus",
            ],
            environment: Tools.environment)
        defer { child.stop(SIGKILL) }
        let status = child.waitForExit(timeout: 20)
        #expect(status == 64, "\(String(describing: status)): \(child.output)")
        #expect(child.output.contains("--record voice=\(folder)/take.opus: format 'opus:opus'"), "\(child.output)")
        #expect(
            child.output.contains("at 44100 Hz; opus:opus takes 8000, 12000, 16000, 24000, 48000 Hz"), "\(child.output)"
        )
        #expect(!child.output.contains("/."), "a hidden file is named: \(child.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }
}
