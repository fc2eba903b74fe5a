import Foundation

/// A child process whose output (stdout and stderr together) goes to a temporary file, so a
/// chatty child can never block on a full pipe. Used from one test thread at a time.
///
/// Spawned with posix_spawn and an empty signal mask, default signal actions: the test runner's
/// threads block nearly every signal, and a child inheriting that mask ignores SIGTERM and can
/// hang (jack_capture did), which Foundation's `Process` does not reset.
final class ChildProcess {
    let pid: pid_t
    let outputPath: String
    let name: String
    private var status: Int32?

    /// Starts `executable` with `arguments`; `environment` is added to (and may unset, with nil)
    /// this process's environment. Standard input is /dev/null, or the FIFO at `input` (opened
    /// read-write in the child, so neither side waits for the other and the child sees no EOF).
    init(_ executable: String, _ arguments: [String], environment: [String: String?] = [:], input: String? = nil) throws
    {
        name = (executable as NSString).lastPathComponent
        outputPath = NSTemporaryDirectory() + "voicerack-it-\(name)-\(getpid())-\(UUID().uuidString).log"
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", input == nil ? O_RDONLY : O_RDWR, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(message: "cannot start \(executable): error \(result)") }
        pid = child
    }

    deinit {
        stop(SIGKILL)
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    /// True until the child has exited (and been reaped).
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        let reaped = waitpid(pid, &raw, WNOHANG)
        guard reaped == pid else { return reaped == 0 }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : -signal
        return false
    }

    /// Everything the child wrote so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` if the child still runs.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit; returns its exit status (the signal
    /// number negated if a signal killed it), or nil if it still runs.
    func waitForExit(timeout: Double) -> Int32? {
        guard poll(timeout: timeout, { !self.isRunning }) else { return nil }
        return status
    }

    /// Stops the child for good: `signal` first, SIGKILL if it has not exited after `grace` seconds.
    func stop(_ signal: Int32 = SIGTERM, grace: Double = 5) {
        guard isRunning else { return }
        send(signal)
        if waitForExit(timeout: signal == SIGKILL ? 10 : grace) == nil, signal != SIGKILL {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 10)
        }
    }

    struct SpawnError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held.
func poll(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        // 100 ms, not less: many conditions run jack_lsp, and each JACK client that opens and
        // closes while the machine is busy is a chance for jackd2's synchronous engine to wedge
        // (see JACKWedgeWatch), so fewer of them while the graph runs.
        usleep(100_000)
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
