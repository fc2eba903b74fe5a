import Foundation

/// Reads a PipeWire graph by running `pw-dump` (pipewire-bin): a child process, so voicerack
/// links against no PipeWire library and stays a plain JACK client.
///
/// - Realtime: never; main thread (it waits for the child, at most `timeout` seconds).
enum PipeWireDump {
    /// The graph of the PipeWire daemon `remote` (nil: `$PIPEWIRE_REMOTE` or the default
    /// socket), or why it could not be read.
    static func read(remote: String?, timeout: Double = 3) -> Result<PipeWireGraph, PipeWireDumpError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pw-dump"] + (remote.map { ["-r", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(
                PipeWireDumpError(message: "cannot run pw-dump: \(error.localizedDescription)", noDaemon: true))
        }
        // A daemon that stopped answering must not hang the main loop: the child is stopped.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failure(
                PipeWireDumpError(
                    message: "pw-dump found no PipeWire daemon \(remote.map { "'\($0)'" } ?? "")", noDaemon: true))
        }
        guard let graph = PipeWireGraph(pwDump: data) else {
            return .failure(PipeWireDumpError(message: "pw-dump's output is not the JSON expected", noDaemon: false))
        }
        return .success(graph)
    }
}

/// Why a PipeWire graph could not be read.
struct PipeWireDumpError: Error, Equatable {
    let message: String
    /// True when no PipeWire answered (plain jackd, or pw-dump missing), not a reading gone wrong.
    let noDaemon: Bool
}
