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

    @Test("a port already in use exits 69 naming the address, before any JACK server is asked")
    func portInUse() throws {
        // A listening socket on a port the system picks.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        // A private config folder: the panel's lasting token may be made before the listen fails.
        let config = try TemporaryFolder()
        let r = try CommandRunner.voicerack(
            [
                "run", "--preset", "raw", "--no-auto-connect", "--server", "voicerack-no-such-server", "--web",
                "\(port)",
            ],
            environment: ["XDG_CONFIG_HOME": config.path])
        #expect(r.status == 69, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("--web 127.0.0.1:\(port): cannot listen"), "\(r.standardError.prefix(300))")
        #expect(r.standardError.contains("Address already in use"))
    }
}
