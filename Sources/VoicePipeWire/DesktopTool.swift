import Foundation

/// Runs one of the desktop's command-line tools (`pw-dump`, `pw-cli`, `pw-metadata`, `gdbus`)
/// as a child process, found on `PATH`: voicerack links against no PipeWire or D-Bus library.
///
/// - Realtime: never; a thread that may wait (the watch's reader, the desktop command queue),
///   never the main loop: the child waits for a daemon that may have stopped answering.
public enum DesktopTool {
    /// What a run gave: true when the tool exited 0, with its standard output and error.
    public struct Outcome: Sendable {
        public var succeeded: Bool
        public var output: String
    }

    /// Runs `arguments` (the tool first); a child still running after `timeout` seconds is
    /// stopped and counts as failed.
    public static func run(_ arguments: [String], timeout: Double) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return Outcome(succeeded: false, output: "cannot run \(arguments[0]): \(error.localizedDescription)")
        }
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Outcome(succeeded: process.terminationReason == .exit && process.terminationStatus == 0, output: text)
    }
}

/// Why a PipeWire graph could not be read.
public struct PipeWireDumpError: Error, Equatable, Sendable {
    public let message: String
    /// True when no PipeWire answered (plain jackd, or pw-dump missing), not a reading gone wrong.
    public let noDaemon: Bool
}
