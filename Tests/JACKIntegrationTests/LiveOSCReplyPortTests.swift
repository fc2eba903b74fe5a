import Foundation
import Testing
import VoiceTestSupport

/// OSC with liblo's own tools, as the manual shows it: `oscsend` sends from a port that closes at
/// once, so replies go to a port the client names (`--osc-reply-port`, or the meters
/// registration's argument), where `oscdump` listens.
extension LiveClientTests {
    static let oscsend = "/usr/bin/oscsend"
    static let oscdump = "/usr/bin/oscdump"
    static var oscToolsInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: oscsend) && FileManager.default.isExecutableFile(atPath: oscdump)
    }

    /// `oscdump -L PORT` on a free port (tried until one binds): the child and its port.
    static func startOSCDump() throws -> (ChildProcess, Int) {
        for _ in 0..<10 {
            let port = Int.random(in: 30_000..<60_000)
            let dump = try ChildProcess(oscdump, ["-L", String(port)])
            Thread.sleep(forTimeInterval: 0.3)
            if dump.isRunning { return (dump, port) }
        }
        throw JACKServer.ServerError(message: "oscdump found no free port in 10 tries")
    }

    /// Runs `oscsend localhost PORT ADDRESS [TYPES ARG...]` and expects it to succeed.
    static func send(_ port: Int, _ address: String, _ typed: [String] = []) throws {
        let (status, output) = try runTool(oscsend, ["localhost", String(port), address] + typed)
        #expect(status == 0, "oscsend \(address): \(output)")
    }

    @Test(
        "OSC: oscsend to /voicerack/help with --osc-reply-port, and oscdump on that port gets the reply; the secret still holds",
        .enabled(if: oscToolsInstalled, "liblo-tools (oscsend, oscdump) are not installed"))
    func oscReplyPortWithLibloTools() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let secretFile = folder + "/osc-secret"
        try "reply-port-secret-1\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let (dump, replyPort) = try Self.startOSCDump()
        defer { dump.stop(SIGKILL) }
        let (voicerack, _) = try launchRecordingClient(
            on: server, ["--osc", "0", "--osc-reply-port", String(replyPort), "--osc-secret-file", secretFile],
            in: folder)
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        #expect(voicerack.output.contains("OSC replies go to port \(replyPort) on the sender's host"))

        try Self.send(port, "/voicerack/help", ["s", "reply-port-secret-1"])
        #expect(
            poll(timeout: 10) {
                dump.output.contains("/voicerack/reply s") && dump.output.contains("/voicerack/meters/register")
            },
            "oscdump \(replyPort) got:\n\(dump.output)")
        // oscdump prints each message's time tag first, then its address.
        let help = dump.output.split(separator: "\n").first { $0.contains(" /voicerack/reply ") } ?? ""
        #expect(help.contains("\"/voicerack/help\""), "\(help)")
        #expect(help.contains("echo_db (dB)") && help.contains("frames_not_run (count)"), "\(help)")

        // Without the secret: refused, and the refusal reaches the reply port too.
        try Self.send(port, "/voicerack/status")
        #expect(
            poll(timeout: 10) { dump.output.contains("/voicerack/error") && dump.output.contains("needs its secret") },
            "\(dump.output)")
        #expect(!dump.output.contains("reply-port-secret-1"), "the secret was sent back")

        // Meters to a port named in the registration: self-describing state pairs.
        let (pushes, pushPort) = try Self.startOSCDump()
        defer { pushes.stop(SIGKILL) }
        try Self.send(port, "/voicerack/meters/register", ["sii", "reply-port-secret-1", "20", String(pushPort)])
        #expect(
            poll(timeout: 10) { pushes.output.components(separatedBy: "/voicerack/state ").count > 5 },
            "oscdump \(pushPort) got:\n\(pushes.output)")
        let state = pushes.output.split(separator: "\n").last { $0.contains(" /voicerack/state ") } ?? ""
        #expect(
            state.contains("\"echo_db\"") && state.contains("\"echo_db\" Nil")
                && state.contains("\"echo_verdict\" \"no far end yet\""), "\(state)")
        #expect(state.contains("\"xruns\" 0"), "\(state)")
        try Self.send(port, "/voicerack/meters/unregister", ["si", "reply-port-secret-1", String(pushPort)])
        #expect(poll(timeout: 10) { dump.output.contains("no more meters to 127.0.0.1:\(pushPort)") }, "\(dump.output)")
        Thread.sleep(forTimeInterval: 0.5)
        let after = pushes.output.components(separatedBy: "/voicerack/state ").count
        Thread.sleep(forTimeInterval: 1)
        #expect(pushes.output.components(separatedBy: "/voicerack/state ").count == after, "pushes went on")

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
    }
}
