import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run --web`: a bad address is a usage error (64) naming what to give, before any
/// JACK server is needed.
@Suite("voicerack run: --web addresses")
struct RunWebTests {
    @Test(
        "--web takes PORT or an IPv4 HOST:PORT; anything else exits 64 saying so",
        arguments: ["http", "70000", "example.com:80", "[::1]:8080"])
    func badAddress(text: String) throws {
        let r = try CommandRunner.voicerack(["run", "--preset", "raw", "--no-auto-connect", "--web", text])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("--web \(text):"), "\(r.standardError.prefix(300))")
        #expect(!r.standardError.contains("not running"))
    }
}
