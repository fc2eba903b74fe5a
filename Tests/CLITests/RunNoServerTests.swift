import Foundation
import Testing
import VoiceTestSupport

/// `run` on a JACK server that does not run: voicerack's own error, once, and libjack's lines
/// ("Cannot connect to server socket", ...) only in the log at debug level.
@Suite("voicerack run without a server")
struct RunNoServerTests {
    let noServer = ["JACK_NO_START_SERVER": "1", "JACK_DEFAULT_SERVER": "voicerack-none-\(getpid())"]

    @Test("exit 69 with one error line; libjack's messages only at --log-level debug")
    func libjackMessagesGoToTheLog() throws {
        let quiet = try CommandRunner.voicerack(["run", "--no-auto-connect"], environment: noServer)
        #expect(quiet.status == 69)
        let all = quiet.standardOutput + quiet.standardError
        #expect(!all.contains("Cannot connect to server"), "libjack's lines leaked:\n\(all)")
        #expect(
            quiet.standardError.split(separator: "\n") == [
                "voicerack: error: cannot connect to JACK server 'voicerack-none-\(getpid())': it is not running (start it, e.g. `jackd -n voicerack-none-\(getpid()) -d alsa` or with qjackctl, or pick another with --server)"
            ], "\(quiet.standardError)")
        let debug = try CommandRunner.voicerack(
            ["run", "--no-auto-connect", "--log-level", "debug"], environment: noServer)
        #expect(debug.status == 69)
        let logged = debug.standardOutput.split(separator: "\n").filter { $0.contains(" DEBUG voicerack: libjack: ") }
        #expect(
            logged.contains {
                $0.hasSuffix("libjack: Cannot connect to server socket err = No such file or directory")
            }, "\(debug.standardOutput)")
    }
}
