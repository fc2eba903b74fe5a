import Foundation
import Testing
import VoiceTestSupport

/// The status line on a real terminal: `voicerack run --control` in a tmux pane of 80 × 24 on
/// a private tmux server, against a private dummy-driver jackd.
@Suite(
    "status line in a terminal", .serialized, RedoOnJACKWedge(),
    .enabled(if: Tools.jackAvailable && Tools.tmux != nil, "jackd or tmux is not installed (apt install jackd2 tmux)"))
struct TerminalStatusTmuxTests {
    /// A private tmux server (its own socket name) with one 80 × 24 session.
    final class Pane {
        let socket = "voicerack-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let tmux = Tools.tmux!

        init(command: String) throws {
            let started = try runTool(
                tmux, ["-L", socket, "new-session", "-d", "-s", "vr", "-x", "80", "-y", "24", command])
            guard started.status == 0 else {
                throw JACKServer.ServerError(message: "tmux did not start: \(started.output)")
            }
        }

        deinit { _ = try? runTool(tmux, ["-L", socket, "kill-server"]) }

        /// The 24 rows as shown (trailing spaces trimmed by tmux); `joined` joins wrapped lines.
        func rows(joined: Bool = false) -> [String] {
            let output =
                (try? runTool(tmux, ["-L", socket, "capture-pane", "-p", "-t", "vr"] + (joined ? ["-J"] : [])).output)
                ?? ""
            var rows = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if rows.last == "" { rows.removeLast() }
            return rows
        }

        /// Types `text` literally, then Enter when `enter`.
        func type(_ text: String, enter: Bool = false) throws {
            _ = try runTool(tmux, ["-L", socket, "send-keys", "-t", "vr", "-l", text])
            if enter { _ = try runTool(tmux, ["-L", socket, "send-keys", "-t", "vr", "Enter"]) }
        }

        func key(_ name: String) throws { _ = try runTool(tmux, ["-L", socket, "send-keys", "-t", "vr", name]) }
    }

    /// `voicerack run` recording `take.wav` in `folder`, in a new pane; the pane's shell says
    /// `voicerack-exited-STATUS` when it ends, and stays.
    func startVoicerack(on server: JACKServer, in folder: TemporaryFolder, _ extra: [String]) throws -> Pane {
        let binary = try #require(Tools.voicerack)
        let arguments =
            ["run", "--server", server.name, "--name", "vr-tmux", "--no-auto-connect", "--record", "take.wav"] + extra
        return try Pane(
            command:
                "cd '\(folder.path)' && env JACK_NO_START_SERVER=1 '\(binary)' \(arguments.joined(separator: " ")); echo voicerack-exited-$?; sleep 600"
        )
    }

    /// The seconds on the `REC 00:00:SS` clock in `row`, if shown.
    func recordingSeconds(_ row: String) -> Int? {
        guard let match = row.firstMatch(of: /^REC (\d\d):(\d\d):(\d\d)/) else { return nil }
        return Int(match.1)! * 3600 + Int(match.2)! * 60 + Int(match.3)!
    }

    @Test("80 columns: after 10 refreshes no wrapped fragments, the typed input intact; record, stop, pause, status")
    func eightyColumns() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let pane = try startVoicerack(on: server, in: folder, ["--control", "--force"])
        // The status row above the prompt row, the recording running.
        let up = poll(timeout: 20) { pane.rows().count == 24 && recordingSeconds(pane.rows()[22]) != nil }
        #expect(up, "\(pane.rows().joined(separator: "\n"))")
        guard up else { return }

        try pane.type("set monitor.mas")
        // The status refreshes every 0.5 s: by 00:00:06 on the clock it has been drawn at least 10 times.
        #expect(poll(timeout: 30) { (recordingSeconds(pane.rows()[22]) ?? 0) >= 6 })
        let rows = pane.rows()
        #expect(rows[23] == "> set monitor.mas", "the typed input: \(rows[23])")
        let status = rows[22]
        #expect(status.count <= 79 && status.contains("mic [") && status.contains("voice ["), "status: \(status)")
        // No other row holds a piece of a status line (a wrapped fragment, or one left behind).
        for (index, row) in rows.enumerated() where index != 22 {
            #expect(!row.contains("mic [") && !row.contains("CPU ") && !row.hasPrefix("REC "), "row \(index): \(row)")
        }
        // Joining wrapped lines leaves the status as it is: it never wrapped.
        #expect(pane.rows(joined: true).filter { $0.contains("mic [") } == [status])

        // The command typed around the refreshes arrives whole.
        try pane.type("ter_db -6", enter: true)
        #expect(poll(timeout: 10) { pane.rows().contains("voicerack: monitor.master_db = -6") }, "\(pane.rows())")
        #expect(poll(timeout: 5) { pane.rows()[23] == ">" })

        try pane.type("stop", enter: true)
        #expect(poll(timeout: 10) { !pane.rows()[22].hasPrefix("REC ") }, "\(pane.rows())")
        let take = folder.file("take.wav")
        #expect(((try? FileManager.default.attributesOfItem(atPath: take)[.size] as? Int) ?? 0) > 44)
        try pane.type("record", enter: true)
        #expect(poll(timeout: 10) { recordingSeconds(pane.rows()[22]) != nil }, "\(pane.rows())")
        try pane.type("pause", enter: true)
        #expect(
            poll(timeout: 10) { pane.rows().contains("voicerack: no backing track (give --backing FILE)") },
            "\(pane.rows())")
        try pane.type("status", enter: true)
        #expect(
            poll(timeout: 10) { pane.rows().contains { $0.hasPrefix("voicerack: mic ") && $0.contains("ERLE") } },
            "\(pane.rows())")

        try pane.key("C-c")
        #expect(poll(timeout: 15) { pane.rows().contains("voicerack-exited-0") }, "\(pane.rows())")
    }

    @Test("80 columns without --control: one status line rewritten in place, never wrapped")
    func singleLine() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let pane = try startVoicerack(on: server, in: folder, [])
        #expect(poll(timeout: 30) { pane.rows().contains { (recordingSeconds($0) ?? 0) >= 6 } }, "\(pane.rows())")
        let statusRows = pane.rows().filter { $0.contains("mic [") }
        #expect(statusRows.count == 1, "\(pane.rows())")
        #expect(statusRows.allSatisfy { $0.count <= 79 && $0.hasPrefix("REC ") })
        #expect(pane.rows(joined: true).filter { $0.contains("mic [") } == statusRows)
        #expect(!pane.rows().contains { $0.contains("CPU ") && !$0.contains("mic [") })

        // Log lines (SIGUSR1 stops the recording) go above the status, which is drawn again
        // below them: still one status row, the last one, and no stale copy left behind.
        let shell = try runTool(pane.tmux, ["-L", pane.socket, "display-message", "-p", "-t", "vr", "#{pane_pid}"])
            .output
        let child = try runTool("/usr/bin/pgrep", ["-P", shell.trimmingCharacters(in: .whitespacesAndNewlines)]).output
        let pid = try #require(
            pid_t(child.trimmingCharacters(in: .whitespacesAndNewlines)), "voicerack's pid: \(child)")
        kill(pid, SIGUSR1)
        #expect(
            poll(timeout: 10) {
                let rows = pane.rows()
                return rows.contains("voicerack: SIGUSR1: stopping the recording")
                    && rows.last(where: { !$0.isEmpty })?.hasPrefix("mic [") == true
            }, "\(pane.rows())")
        #expect(pane.rows().filter { $0.contains("mic [") }.count == 1, "\(pane.rows())")
        try pane.key("C-c")
        #expect(poll(timeout: 15) { pane.rows().contains("voicerack-exited-0") }, "\(pane.rows())")
    }
}
