import Foundation
import Testing

/// The web panel (`run --web`) against hostile clients, out of process and under the usual
/// descriptor limit of 1,024: a 1 MB header line, 2,000 idle connections, a slowloris of 500 and
/// a WebSocket frame claiming 512 MB (`panel-attack.py`), while the page is fetched every 0.2 s
/// and voicerack's resident memory is sampled.
extension LiveClientTests {
    @Test(
        "web panel under attack (ulimit -n 1024): each attack refused within its bound, the page answers within 1 s throughout, memory grows by 32 MB at most, the process thread never late by its own work"
    )
    func webPanelUnderAttack() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let command = [
            binary, "run", "--server", server.name, "--name", "vr", "--no-auto-connect", "--preset", "echo-cancel",
            "--web", "0",
        ]
        // The shell sets the limit, then becomes voicerack (exec keeps the pid the test signals).
        let voicerack = try ChildProcess(
            "/bin/sh", ["-c", "ulimit -n 1024 && exec " + command.map { "'\($0)'" }.joined(separator: " ")],
            environment: Tools.environment)
        defer { voicerack.stop(SIGKILL) }
        let up = poll(timeout: 20) { !voicerack.isRunning || voicerack.output.contains("web panel: open http://") }
        try #require(up && voicerack.isRunning, "\(voicerack.output)")
        let url = try #require(
            voicerack.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).first {
                $0.hasPrefix("http://127.0.0.1:")
            }
            .map(String.init))

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "panel-attack.py")
        let (status, output) = try runTool("/usr/bin/python3", [script.path, url, String(voicerack.pid)], timeout: 120)
        try #require(status == 0, "panel-attack.py failed:\n\(output)")
        let line = try #require(output.split(separator: "\n").last.map(String.init))
        let r = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        print("web panel under attack: \(line)")
        let header = try #require(r["header"] as? [String: Any])
        #expect((header["status"] as? String)?.contains("431") == true, "1 MB header line: \(header)")
        #expect(header["closed"] as? Bool == true, "1 MB header line: \(header)")
        let idle = try #require(r["idle"] as? [String: Any])
        #expect(idle["opened"] as? Int == 2_000, "idle: \(idle)")
        // At most a quarter of the descriptor limit stays open; the rest made room for others.
        #expect((idle["closed_by_server_after_5s"] as? Int ?? 0) >= 2_000 - 256, "idle: \(idle)")
        let slowloris = try #require(r["slowloris"] as? [String: Any])
        #expect(slowloris["opened"] as? Int == 500, "slowloris: \(slowloris)")
        #expect(slowloris["open_after_15s"] as? Int == 0, "slowloris: \(slowloris)")
        let frame = try #require(r["frame"] as? [String: Any])
        #expect((frame["upgrade"] as? String)?.contains("101") == true, "frame: \(frame)")
        #expect(frame["close_code"] as? Int == 1009, "512 MB frame: \(frame)")
        #expect((r["page_fetches"] as? Int ?? 0) > 50, "\(line)")
        #expect(r["page_failure_count"] as? Int == 0, "page failures: \(r["page_failures"] ?? "")")
        #expect((r["page_slowest_s"] as? Double ?? 99) < 1, "the page's slowest answer: \(r["page_slowest_s"] ?? "")")
        let grown = (r["rss_max_kb"] as? Int ?? .max) - (r["rss_before_kb"] as? Int ?? 0)
        #expect(grown <= 32 * 1024, "resident memory grew by \(grown) kB")

        #expect(voicerack.isRunning, "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let figures = Self.summaryFigures(voicerack.output)
        print(
            "web panel under attack: callback overruns by own work \(figures.workOverruns.map(String.init) ?? "?"), worst \(figures.worst.map { String(format: "%.1f", $0) } ?? "?")% of the period, most work \(figures.mostWork.map { String(format: "%.1f", $0) } ?? "?")%"
        )
        #expect(figures.workOverruns == 0, "\(voicerack.output)")
    }
}
