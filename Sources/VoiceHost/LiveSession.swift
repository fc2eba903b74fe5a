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
    /// What to record (from the start with `--record`, or on SIGUSR1).
    public var recording = LiveRecordingOptions()
    /// The `--preset` argument (name or path) that SIGHUP re-reads; nil: SIGHUP only unmutes.
    public var presetArgument: String?
    /// Read `set KEY VALUE` commands from standard input (`--control`).
    public var control = false
    /// A backing track to play on speaker_out_L/R (level and loop from `configuration`).
    public var backingPath: String?

    public init(options: JACKClient.Options, configuration: EngineConfiguration, presetName: String) {
        self.options = options
        self.configuration = configuration
        self.presetName = presetName
    }
}

/// Runs the JACK client until SIGINT/SIGTERM or until the server goes away.
///
/// The main thread waits for signals with sigtimedwait in slices of 100 ms and, between them,
/// checks for a server shutdown and for recordings a write error stopped, forwards latency
/// changes to JACK and prints the status: a redrawn line every 0.5 s on a terminal, a plain log
/// line every 5 s otherwise. SIGUSR1 starts or stops recording.
///
/// Stopping (signal or server shutdown) closes the client first, so the process thread no
/// longer runs, then finalises the recordings on this thread and prints the exit summary.
///
/// - Realtime: never; main thread.
public enum LiveSession {
    /// Returns after a clean stop (SIGINT/SIGTERM); throws `.usage` (64) or `.cannotCreate` (73)
    /// for recordings that cannot be made, before the client is opened, and `.unavailable` (69)
    /// when the server is not running or shuts down while we run (after finalising the files).
    public static func run(_ request: LiveRequest) throws(HostError) {
        // Before any JACK thread exists, so they all inherit the blocked mask.
        let signals = SignalWaiter([SIGINT, SIGTERM, SIGUSR1, SIGHUP, SIGUSR2])
        let recorder = LiveRecorder(request.recording)
        try recorder.check(client: request.options.name)
        if let path = request.backingPath { _ = try BackingTrack.open(path) }
        let server = request.options.serverDisplayName
        let client: JACKClient
        do {
            client = try JACKClient(options: request.options, configuration: request.configuration)
        } catch {
            throw HostError(.unavailable, error.message)
        }
        let backing = try request.backingPath.map { (path) throws(HostError) in
            try BackingTrack(path: path, sampleRate: client.sampleRate, levelDB: request.configuration.backingLevelDB, loop: request.configuration.backingLoop)
        }
        // Closing the client first: the process thread must be done with the track's source.
        defer {
            client.close()
            backing?.stop()
        }
        if let backing {
            client.attachBacking(backing.source)
            backing.start()
        }
        let out = StatusOutput()
        var startLines: [String] = []
        if recorder.recordsFromStart { startLines = try recorder.start(client) }
        do {
            try client.activate()
        } catch {
            client.close()
            _ = recorder.stop(detachingFrom: nil)
            throw HostError(.unavailable, error.message)
        }
        out.log(StatusText.started(client.status(), client: client.clientName, server: server, preset: request.presetName))
        for line in startLines { out.log(line) }
        if client.clientName != request.options.name {
            out.log("note: the name '\(request.options.name)' was taken; JACK named this client '\(client.clientName)'")
        }
        if request.autoConnect {
            for note in client.autoConnect() { out.log(note) }
        }
        var lastStatus = Date()
        var blockSize = client.status().blockSize
        let control = LiveControl(client: client, preset: request.presetArgument ?? request.presetName, backing: backing)
        let commands = request.control ? StandardInputLines() : nil
        if commands != nil { out.log("reading commands from standard input (help lists them)") }
        var feedbackEvents = 0
        while true {
            if let s = signals.wait(seconds: 0.1) {
                if s == SIGUSR1 {
                    toggleRecording(recorder, client, out)
                    continue
                }
                if s == SIGHUP {
                    for line in control.reload() { out.log(line) }
                    continue
                }
                if s == SIGUSR2 {
                    out.log(BackingText.toggle(backing))
                    continue
                }
                out.log("stopping on \(s == SIGINT ? "SIGINT" : "SIGTERM"); xruns \(client.status().xruns)")
                finish(client, recorder, out)
                if let backing {
                    backing.stop()
                    out.log("summary: " + BackingText.summary(backing))
                }
                return
            }
            if client.serverHasShutDown {
                let reason = client.shutdownReason.map { ": \($0)" } ?? ""
                out.endLine()
                out.log("JACK server '\(server)' shut down\(reason); finalising")
                finish(client, recorder, out)
                throw HostError(.unavailable, "JACK server '\(server)' shut down while voicerack was running\(reason)")
            }
            if let rate = client.changedSampleRate {
                out.endLine()
                let message = "JACK switched the sample rate from \(client.sampleRate) to \(rate) Hz; the engine and the recordings are built for \(client.sampleRate) Hz. Restart voicerack to continue at \(rate) Hz"
                out.log(message + "; finalising")
                finish(client, recorder, out)
                throw HostError(.unavailable, message)
            }
            for line in recorder.newProblems() { out.log(line) }
            for command in commands?.take() ?? [] {
                for line in control.handle(command) { out.log(line) }
            }
            let health = client.status().health
            if health.feedbackEvents > feedbackEvents {
                feedbackEvents = health.feedbackEvents
                out.log(StatusText.feedback(health))
            }
            if let problem = backing?.problem.withLock({ p in defer { p = nil }; return p }) { out.log(problem) }
            client.updateLatenciesIfNeeded()
            if let seed = client.seedDelayFromPortLatencies() {
                out.log("reference delay seeded from JACK latencies: \(seed) samples (playback + capture); the estimator refines it")
            }
            let now = client.status()
            if now.blockSize != blockSize {
                blockSize = now.blockSize
                out.log("JACK buffer size is now \(now.blockSize) samples; voice latency \(now.latency) samples (\(HealthText.milliseconds(now.latency, rate: now.sampleRate)))")
            }
            if Date().timeIntervalSince(lastStatus) >= out.interval {
                lastStatus = Date()
                out.status(StatusText.line(client.status(), recording: recorder.statusText))
            }
        }
    }

    /// SIGUSR1: stops and finalises the recordings, or starts new ones from the templates.
    private static func toggleRecording(_ recorder: LiveRecorder, _ client: JACKClient, _ out: StatusOutput) {
        if recorder.isRecording {
            out.log("SIGUSR1: stopping the recording")
            for line in recorder.stop(detachingFrom: client) { out.log(line) }
            return
        }
        do {
            for line in try recorder.start(client) { out.log("SIGUSR1: " + line) }
        } catch {
            out.log("SIGUSR1: cannot start recording: \(error.message)")
        }
    }

    /// Closes the client (the process thread stops), finalises the recordings, prints the summary.
    private static func finish(_ client: JACKClient, _ recorder: LiveRecorder, _ out: StatusOutput) {
        client.close()
        _ = recorder.stop(detachingFrom: nil)
        out.log("summary: " + RecordingText.timing(client.cycleFigures(), xruns: client.xrunCount))
        for line in recorder.finishedLines { out.log("summary: " + line) }
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
