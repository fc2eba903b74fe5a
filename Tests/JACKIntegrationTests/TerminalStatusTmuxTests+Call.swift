import Foundation
import Testing
import VoiceTestSupport

/// The status line during a call, in an 80-column tmux pane: the echo verdict is shown (it is
/// the last part the fit drops), and `quit` ends the session cleanly.
extension TerminalStatusTmuxTests {
    /// `echo -NN dB VERDICT` in `row`: the dB and the verdict.
    func echoVerdict(_ row: String) -> (db: Int, verdict: String)? {
        guard let match = row.firstMatch(of: /echo -(\d+) dB (good|fair|poor)/) else { return nil }
        return (Int(match.1)!, String(match.2))
    }

    @Test(
        "80 columns during a call (echo through the test peer): the echo verdict shows; quit exits 0, the line cleared",
        .enabled(if: TestPeer.executable != nil, "voicerack-testpeer was not built"))
    func echoVerdictDuringACallThenQuit() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let scenario = try EchoScenarioFiles(in: folder)
        let pane = try startVoicerack(on: server, in: folder, ["--preset", "echo-cancel", "--control", "--force"])
        #expect(poll(timeout: 20) { pane.rows().count == 24 && recordingSeconds(pane.rows()[22]) != nil })
        let peer = try TestPeer.start(
            server: server, target: "vr-tmux", mic: scenario.micPath, ref: scenario.referencePath,
            out: folder.file("peer.wav"))
        defer { peer.stop(SIGKILL) }
        // The far end plays alone from 4 s of the scenario: the figure comes once it has.
        var shown: (db: Int, verdict: String)?
        _ = poll(timeout: 40) {
            shown = echoVerdict(pane.rows()[22])
            return shown != nil
        }
        let status = pane.rows()[22]
        print("status line at 80 columns during the call: \(status)")
        let verdict = try #require(shown, "no echo verdict on the status row: \(pane.rows().joined(separator: "\n"))")
        #expect(status.count <= 79, "\(status)")
        #expect(verdict.verdict == "good" && verdict.db >= 35, "\(status)")
        _ = TestPeer.finish(peer)

        try pane.type("quit", enter: true)
        #expect(poll(timeout: 20) { pane.rows().contains("voicerack-exited-0") }, "\(pane.rows())")
        let rows = pane.rows()
        // The summary says how much echo was removed and what that means.
        let summary = try #require(
            rows.first { $0.hasPrefix("voicerack: summary: echo removed: ") }, "\(rows.joined(separator: "\n"))")
        #expect(summary.hasSuffix("dB (good)"), "\(summary)")
        print("exit summary after the call: \(summary)")
        // The status line is gone: no row holds a piece of it after the exit.
        for (index, row) in rows.enumerated() {
            #expect(!row.contains("mic [") && !row.hasPrefix("REC "), "row \(index) after exit: \(row)")
        }
        #expect(
            rows.contains("voicerack: stopping on quit; xruns 0")
                || rows.contains { $0.hasPrefix("voicerack: stopping on quit") })
    }

    @Test("Ctrl-D on the --control prompt ends the session with exit 0, the status line cleared")
    func controlDQuits() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let pane = try startVoicerack(on: server, in: folder, ["--control", "--force"])
        #expect(poll(timeout: 20) { pane.rows().count == 24 && recordingSeconds(pane.rows()[22]) != nil })
        try pane.key("C-d")
        #expect(poll(timeout: 20) { pane.rows().contains("voicerack-exited-0") }, "\(pane.rows())")
        let rows = pane.rows()
        #expect(rows.contains { $0.hasPrefix("voicerack: stopping on Ctrl-D") }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.hasPrefix("voicerack: summary: recorded voice to") }, "\(rows)")
        for (index, row) in rows.enumerated() {
            #expect(!row.contains("mic [") && !row.hasPrefix("REC "), "row \(index) after exit: \(row)")
        }
    }
}
