import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run` refuses client and server names libjack cannot take (64, naming the limit),
/// before libjack sees them: no server is needed to get the answer.
@Suite("voicerack run: JACK names")
struct RunNameTests {
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandRunner.Result {
        try CommandRunner.voicerack(
            ["run", "--preset", "raw", "--no-auto-connect"] + arguments, environment: environment)
    }

    @Test(
        "server names past JACK_SERVER_NAME_SIZE are usage errors, not a smashed stack",
        arguments: [256, 270, 300, 5000])
    func longServerName(length: Int) throws {
        let r = try run(["--server", String(repeating: "s", count: length)])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(
            r.standardError.contains(
                "--server: the server name is \(length) bytes long; JACK allows at most 255 (JACK_SERVER_NAME_SIZE)"))
    }

    @Test("the same limit holds for $JACK_DEFAULT_SERVER")
    func longServerNameFromEnvironment() throws {
        let r = try run([], environment: ["JACK_DEFAULT_SERVER": String(repeating: "e", count: 300)])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(
            r.standardError.contains("JACK_DEFAULT_SERVER: the server name is 300 bytes long; JACK allows at most 255"))
    }

    @Test("client names of 64 bytes and more are usage errors naming the limit", arguments: [64, 65, 1000])
    func longClientName(length: Int) throws {
        let r = try run(["--name", String(repeating: "n", count: length)])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(
            r.standardError.contains(
                "--name: the client name is \(length) bytes long; JACK allows at most 63 (jack_client_name_size())"))
        #expect(!r.standardError.contains("not running"))
    }

    @Test("names JACK cannot use are refused with the reason")
    func badCharacters() throws {
        let colon = try run(["--name", "voice:rack"])
        #expect(colon.status == 64)
        #expect(colon.standardError.contains("contains ':', which separates client and port"))
        let slash = try run(["--server", "a/b"])
        #expect(slash.status == 64)
        #expect(slash.standardError.contains("server name 'a/b' contains '/'"))
        let control = try run(["--name", "bad\u{1B}[2Jname"])
        #expect(control.status == 64)
        #expect(control.standardError.contains("the client name contains control characters"))
    }

    @Test("a 63-byte client name passes the check (and reaches JACK: no server here, 69)")
    func longestClientName() throws {
        let r = try run(
            ["--name", String(repeating: "n", count: 63)],
            environment: ["JACK_DEFAULT_SERVER": "voicerack-no-such-server-\(UUID().uuidString.prefix(8))"])
        #expect(r.status == 69, "\(r.status): \(r.standardError.prefix(300))")
    }
}
