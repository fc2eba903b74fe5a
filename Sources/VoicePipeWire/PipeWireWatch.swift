import Foundation

/// Follows a PipeWire graph on a thread of its own with `pw-dump --monitor`: one dump, then each
/// change as it happens (a node's ports, its mute, the default devices). The main loop only
/// takes the latest graph, so a PipeWire that stopped answering (stopped, swapping, restarting)
/// never holds it; a pw-dump that ends (PipeWire went away) is started again a second later.
///
/// - Realtime: never. `latest` and `stop` from the main thread; the reading runs on the thread
///   "voicerack-pipewire", which waits on pw-dump's output.
public final class PipeWireWatch: @unchecked Sendable {
    /// What the watch knows now.
    public struct Reading: Sendable {
        /// The graph after the last change read; nil while pw-dump is not running.
        public var graph: PipeWireGraph?
        /// Counts the graphs read, so that the main loop sees a change.
        public var generation = 0
        /// Why pw-dump ended the last time; nil once it reads a graph again.
        public var error: PipeWireDumpError?
        /// Counts the pw-dump runs: a new one after PipeWire restarted sees new nodes under the
        /// old names, whose state (a mute) is their own, not a change of the old ones'.
        public var run = 0
        /// True once pw-dump has either read a graph or failed: the start's answer.
        public var answered: Bool { graph != nil || error != nil }
    }

    private let lock = NSLock()
    private var reading = Reading()
    private var child: Process?
    private var stopped = false
    private let remote: String?

    /// Starts watching the daemon `remote` (nil: `$PIPEWIRE_REMOTE` or the default socket).
    public init(remote: String?) {
        self.remote = remote
        let thread = Thread { [self] in
            while !isStopped {
                follow()
                // PipeWire went away (or pw-dump failed): try again soon, as it may come back.
                for _ in 0..<10 where !isStopped { Thread.sleep(forTimeInterval: 0.1) }
            }
        }
        thread.name = "voicerack-pipewire"
        thread.start()
    }

    /// The latest reading; never waits for PipeWire.
    public func latest() -> Reading {
        lock.withLock { reading }
    }

    /// Stops pw-dump and the reading thread (it ends by itself once pw-dump has gone).
    public func stop() {
        lock.withLock {
            stopped = true
            child?.terminate()
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// What goes before pw-dump so that it dies with voicerack: util-linux's `setpriv
    /// --pdeathsig KILL` (the kernel's PR_SET_PDEATHSIG), when it is on `PATH`. Without it, a
    /// pw-dump whose voicerack was killed (SIGKILL: no `stop`) waits for PipeWire's next change
    /// before it finds its output gone.
    static let dieWithParent: [String] = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/setpriv")
        }
        return found ? ["setpriv", "--pdeathsig", "KILL"] : []
    }()

    /// Runs one pw-dump --monitor until it ends, publishing a graph after each change.
    private func follow() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = Self.dieWithParent + ["pw-dump", "--monitor", "-N"] + (remote.map { ["-r", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started: Bool = lock.withLock {
            guard !stopped, (try? process.run()) != nil else { return false }
            child = process
            reading.run += 1
            return true
        }
        guard started else {
            if !isStopped { publish(error: PipeWireDumpError(message: "cannot run pw-dump", noDaemon: true)) }
            return
        }
        var splitter = PWDumpStream.Splitter()
        var stream = PWDumpStream()
        var understood = true
        while understood {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            let documents = splitter.feed(chunk)
            for document in documents where !stream.apply(document) { understood = false }
            guard understood else { break }
            if !documents.isEmpty { publish(graph: PipeWireGraph(objects: stream.objects)) }
        }
        if !understood { process.terminate() }
        process.waitUntilExit()
        lock.withLock { child = nil }
        let remoteName = remote.map { " '\($0)'" } ?? ""
        publish(
            error: understood
                ? PipeWireDumpError(message: "pw-dump found no PipeWire daemon\(remoteName)", noDaemon: true)
                : PipeWireDumpError(message: "pw-dump's output is not the JSON expected", noDaemon: false))
    }

    private func publish(graph: PipeWireGraph) {
        lock.withLock {
            reading.graph = graph
            reading.error = nil
            reading.generation += 1
        }
    }

    private func publish(error: PipeWireDumpError) {
        lock.withLock {
            reading.graph = nil
            reading.error = error
            reading.generation += 1
        }
    }
}
