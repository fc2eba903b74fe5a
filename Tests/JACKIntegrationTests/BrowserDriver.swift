import Foundation
import Testing

/// Debian's chromium, steered through Debian's chromedriver by selenium (scripts/dev/panel-browser.py,
/// run by the venv scripts/install-deps.sh makes in the build folder): one command a line in, one
/// JSON answer a line out, so the test measures audio between browser steps.
///
/// - Test thread only.
final class BrowserDriver {
    private let child: ChildProcess
    private let commands: FileHandle
    private let fifo: String
    private var seq = 0

    /// The package's root (scripts/, .build/).
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let python = package + "/.build/browser-venv/bin/python"
    static let script = package + "/scripts/dev/panel-browser.py"

    /// True when chromium, chromedriver and the selenium venv are installed.
    static var available: Bool {
        Tools.which("chromium") != nil && Tools.which("chromedriver") != nil
            && FileManager.default.isExecutableFile(atPath: python)
    }

    /// Where screenshots are kept: `$VOICERACK_TEST_ARTEFACTS`, else `.build/test-artefacts`.
    static var artefacts: String {
        let folder =
            ProcessInfo.processInfo.environment["VOICERACK_TEST_ARTEFACTS"] ?? package + "/.build/test-artefacts"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    init() throws {
        fifo = NSTemporaryDirectory() + "voicerack-browser-\(getpid())-\(UUID().uuidString)"
        guard mkfifo(fifo, 0o600) == 0 else { throw ChildProcess.SpawnError(message: "mkfifo \(fifo) failed") }
        child = try ChildProcess(Self.python, ["-u", Self.script], input: fifo)
        guard let handle = FileHandle(forWritingAtPath: fifo) else {
            throw ChildProcess.SpawnError(message: "cannot open \(fifo)")
        }
        commands = handle
    }

    deinit {
        // The driver leads its own process group (chromedriver and chromium in it): end them all.
        if child.isRunning { kill(-child.pid, SIGKILL) }
        child.stop(SIGKILL)
        unlink(fifo)
    }

    /// Sends `command` and waits up to `timeout` seconds for its answer; records an issue and
    /// returns nil when the browser failed or did not answer.
    @discardableResult
    func run(_ command: [String: Any], timeout: Double = 40) -> Any? {
        seq += 1
        var sent = command
        sent["seq"] = seq
        let data = try! JSONSerialization.data(withJSONObject: sent)
        commands.write(data + Data("\n".utf8))
        var answer: [String: Any]?
        let mine = seq
        let arrived = poll(timeout: timeout) {
            for line in child.output.split(separator: "\n") where line.hasPrefix("{\"seq\": \(mine),") {
                answer = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return true
            }
            return !child.isRunning
        }
        guard arrived, let answer, answer["ok"] as? Bool == true else {
            Issue.record(
                "browser: \(command) failed: \(answer?["value"] ?? "no answer"); driver output:\n\(child.output)")
            return nil
        }
        return answer["value"]
    }

    /// A JavaScript expression's value (`return` is added).
    func value(_ expression: String) -> Any? { run(["cmd": "eval", "js": "return " + expression]) }

    /// Waits until the JavaScript expression is truthy.
    @discardableResult
    func wait(_ expression: String, timeout: Double = 20) -> Any? {
        run(["cmd": "wait", "js": "return " + expression, "timeout": timeout], timeout: timeout + 10)
    }

    func quit() {
        run(["cmd": "quit"])
        _ = child.waitForExit(timeout: 10)
    }
}
