import Foundation
import Glibc
import VoiceEngine
import VoiceJACK

/// What `voicerack run` runs.
public struct LiveRequest: Sendable {
    public var options: JACKClient.Options
    public var configuration: EngineConfiguration
    public var presetName: String
    /// Connect mic_in and speaker_out_L/R to the physical ports.
    public var autoConnect = true

    public init(options: JACKClient.Options, configuration: EngineConfiguration, presetName: String) {
        self.options = options
        self.configuration = configuration
        self.presetName = presetName
    }
}

/// Runs the JACK client until SIGINT/SIGTERM or until the server goes away.
///
/// The main thread waits for signals with sigtimedwait in slices of 100 ms and, between them,
/// checks for a server shutdown, forwards latency changes to JACK and prints the status: a
/// redrawn line every 0.5 s on a terminal, a plain log line every 5 s otherwise.
///
/// - Realtime: never; main thread.
public enum LiveSession {
    /// Returns after a clean stop (SIGINT/SIGTERM); throws `.unavailable` (69) when the server is
    /// not running or shuts down while we run.
    public static func run(_ request: LiveRequest) throws(HostError) {
        // Before any JACK thread exists, so they all inherit the blocked mask.
        let signals = SignalWaiter([SIGINT, SIGTERM])
        let server = request.options.serverDisplayName
        let client: JACKClient
        do {
            client = try JACKClient(options: request.options, configuration: request.configuration)
            try client.activate()
        } catch {
            throw HostError(.unavailable, error.message)
        }
        defer { client.close() }
        let out = StatusOutput()
        out.log(StatusText.started(client.status(), client: client.clientName, server: server, preset: request.presetName))
        if client.clientName != request.options.name {
            out.log("note: the name '\(request.options.name)' was taken; JACK named this client '\(client.clientName)'")
        }
        if request.autoConnect {
            for note in client.autoConnect() { out.log(note) }
        }
        var lastStatus = Date()
        var blockSize = client.status().blockSize
        while true {
            if let s = signals.wait(seconds: 0.1) {
                out.log("stopping on \(s == SIGINT ? "SIGINT" : "SIGTERM"); xruns \(client.status().xruns)")
                return
            }
            if client.serverHasShutDown {
                let reason = client.shutdownReason.map { ": \($0)" } ?? ""
                out.endLine()
                throw HostError(.unavailable, "JACK server '\(server)' shut down while voicerack was running\(reason)")
            }
            client.updateLatenciesIfNeeded()
            let now = client.status()
            if now.blockSize != blockSize {
                blockSize = now.blockSize
                out.log("JACK buffer size is now \(now.blockSize) samples; voice latency \(now.latency) samples (\(HealthText.milliseconds(now.latency, rate: now.sampleRate)))")
            }
            if Date().timeIntervalSince(lastStatus) >= out.interval {
                lastStatus = Date()
                out.status(StatusText.line(client.status()))
            }
        }
    }
}

/// Where status goes: standard output, redrawn in place on a terminal, logged otherwise.
final class StatusOutput {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Seconds between status lines.
    var interval: Double { isTerminal ? 0.5 : 5 }
    private var lineOpen = false

    /// A status line: redraws the terminal line, or logs it.
    func status(_ line: String) {
        guard isTerminal else { return log(line) }
        write("\r\u{1B}[2K" + line)
        lineOpen = true
    }

    /// A log line, ending any status line first.
    func log(_ line: String) {
        endLine()
        write("voicerack: \(line)\n")
    }

    /// Ends an open status line so the next output starts on its own line.
    func endLine() {
        guard lineOpen else { return }
        write("\n")
        lineOpen = false
    }

    private func write(_ s: String) { FileHandle.standardOutput.write(Data(s.utf8)) }
}
