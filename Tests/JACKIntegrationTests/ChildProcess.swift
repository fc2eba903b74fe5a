import Foundation

/// A child process whose output (stdout and stderr together) goes to a temporary file, so a
/// chatty child can never block on a full pipe. Used from one test thread at a time.
final class ChildProcess {
    let process = Process()
    let outputPath: String
    let name: String

    /// Starts `executable` with `arguments`; `environment` is added to (and may unset, with nil)
    /// this process's environment.
    init(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) throws {
        name = (executable as NSString).lastPathComponent
        outputPath = NSTemporaryDirectory() + "voicerack-it-\(name)-\(getpid())-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()
    }

    deinit { try? FileManager.default.removeItem(atPath: outputPath) }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Everything the child wrote so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` if the child still runs.
    func send(_ signal: Int32) {
        if process.isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit; returns its exit status, or nil if it
    /// still runs (or was killed by a signal: then `terminationReason` is `.uncaughtSignal` and the
    /// status is the signal number, returned negated).
    func waitForExit(timeout: Double) -> Int32? {
        guard poll(timeout: timeout, { !self.process.isRunning }) else { return nil }
        process.waitUntilExit()
        let status = process.terminationStatus
        return process.terminationReason == .exit ? status : -status
    }

    /// Stops the child for good: `signal` first, SIGKILL if it has not exited after `grace` seconds.
    func stop(_ signal: Int32 = SIGTERM, grace: Double = 5) {
        guard process.isRunning else { return }
        send(signal)
        if waitForExit(timeout: grace) == nil, process.isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: grace)
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held.
func poll(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}

/// Runs `executable` to completion (at most `timeout` seconds); returns its status and output.
func runTool(
    _ executable: String, _ arguments: [String], timeout: Double = 10, environment: [String: String?] = [:]
) throws -> (status: Int32?, output: String) {
    let child = try ChildProcess(
        executable, arguments, environment: Tools.environment.merging(environment) { $1 })
    let status = child.waitForExit(timeout: timeout)
    if status == nil { child.stop(SIGKILL) }
    return (status, child.output)
}
