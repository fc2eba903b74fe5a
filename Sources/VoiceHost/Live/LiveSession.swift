import Foundation
import Glibc
import Logging
import VoiceControl
import VoiceCycle
import VoiceEngine
import VoiceJACK
import VoicePipeWire
import VoiceRecorder
import VoiceStream

/// What `voicerack run` runs.
public struct LiveRequest: Sendable {
    public var options: JACKDriver.Options
    public var configuration: EngineConfiguration
    /// The preset's JACK, recording, backing and stream settings.
    public var sessionSettings: SessionSettings
    public var presetName: String
    /// Connect mic_in and speaker_out_L/R to the physical ports.
    public var autoConnect = true
    /// What to record (from the start with `--record`, or on SIGUSR1).
    public var recording = LiveRecordingOptions()
    /// The `--preset` argument (name or path) that SIGHUP re-reads; nil: SIGHUP only unmutes.
    public var presetArgument: String?
    /// Read `set KEY VALUE` commands from standard input (`--control`).
    public var control = false
    /// A backing track to play on speaker_out_L/R (level and loop from `sessionSettings`).
    public var backingPath: String?
    /// What makes the chain's LV2 units and checks the presets a reload or a session loads (nil:
    /// a preset with one is refused).
    public var pluginHost: (any PluginHost)?
    /// The least severe log lines printed (`--log-level`).
    public var logLevel: Logger.Level = .info
    /// Stream a tap to Icecast from the start (`--stream`), and which tap.
    public var stream: StreamSettings?
    public var streamTap: Tap = .voice
    /// Stream from the start; false: only on `stream start` or `StreamSignal` (SIGRTMIN+1).
    public var streamAutostart = true
    /// When the server goes away, finalise the takes, wait for it to come back and resume with
    /// the same ports and connections into new takes (`--wait-for-server`), instead of exiting 69.
    public var waitForServer = false
    /// Control surfaces (OSC, the web panel) served while the session runs; started before the
    /// client opens (a port in use stops the start), stopped after it closed.
    public var surfaces: [any ControlSurface] = []
    /// A session manager (NSM) to announce to: the client opens only once the manager opened a
    /// session, named by it, with the session's preset copy and recordings folder.
    public var sessionManager: (any SessionManager)?
    /// Link to PipeWire's voicerack nodes and devices and keep the links (`--pipewire`); nil:
    /// auto-connect as on any JACK server.
    public var pipeWire: PipeWireSettings?
    /// Record only while the server freewheels or the transport rolls (`--record-on-freewheel`,
    /// `--record-on-transport`), a take per run or roll; `.always` records throughout.
    public var recordingGate: RecordingGate = .always
    /// The backing track plays while the JACK transport rolls, from its frame
    /// (`--backing-follows-transport`).
    public var backingFollowsTransport = false
    /// Measure voice_out's loudness (EBU R128) off the process thread: the status line, the
    /// surfaces, each take's summary and `agc.target_lufs` read it (`--no-loudness-meter`: off).
    public var loudnessMeter = true

    public init(
        options: JACKDriver.Options, configuration: EngineConfiguration,
        sessionSettings: SessionSettings = SessionSettings(),
        presetName: String
    ) {
        self.options = options
        self.configuration = configuration
        self.sessionSettings = sessionSettings
        self.presetName = presetName
    }
}

/// Runs the live session until SIGINT/SIGTERM, a hang-up of the terminal, or until the server
/// goes away.
///
/// The session owns the cycle (`CycleHost`: engine, swaps, recordings, backing), the control
/// surfaces and the recordings; the JACK driver only moves audio. The main thread waits for
/// signals in slices of 100 ms (1/60 s while a surface watches meters) and between them runs
/// `LiveLoop.tick`: server shutdown, write errors, commands, latency, status, the surfaces'
/// snapshot. A surface's command wakes the wait at once: the hub sends the process SIGURG, which
/// every thread blocks and only the wait takes. SIGUSR1 starts or stops recording, SIGUSR2 pauses the
/// backing track, SIGRTMIN+1 starts or stops the stream, SIGHUP from a user reloads the preset.
///
/// Stopping takes the recordings away from the process thread and finalises them first, then
/// leaves the server within a timeout (a stopped server cannot hang the exit; a second signal
/// exits at once), and prints the summary.
///
/// - Realtime: never; main thread.
public enum LiveSession {
    /// Returns after a clean stop; throws `.usage` (64) or `.cannotCreate` (73) for recordings
    /// that cannot be made, before the client is opened, and `.unavailable` (69) when the server
    /// is not running or shuts down while we run (after finalising the files); with
    /// `waitForServer` it waits for the server in both cases instead.
    public static func run(_ request: LiveRequest) throws(HostError) {
        // Before any other thread exists, so they all inherit the blocked mask.
        let signals = SignalWaiter([SIGINT, SIGTERM, SIGUSR1, SIGHUP, SIGUSR2, StreamSignal.number, SIGURG])
        var request = request
        let hub = ControlHub(wake: { kill(getpid(), SIGURG) })
        var started: [any ControlSurface] = []
        var surfaceLines: [String] = []
        defer { for surface in started { surface.stop() } }
        for surface in request.surfaces + [request.sessionManager].compactMap({ $0 }) {
            do {
                surfaceLines += try surface.start(hub)
            } catch {
                throw HostError(HostError.Kind(rawValue: error.code) ?? .unavailable, error.message)
            }
            started.append(surface)
        }
        if let manager = request.sessionManager {
            for line in surfaceLines { StatusOutput.writeOut("voicerack: \(line)\n") }
            surfaceLines = []
            guard let session = try waitForSession(manager, signals) else { return }
            do {
                surfaceLines.append(try request.open(session))
            } catch {
                manager.answerOpen(.failure(error))
                throw HostError(error.kind == .general ? .unavailable : .cannotCreate, "NSM: \(error.message)")
            }
        }
        // libjack's own lines ("Cannot connect to server socket", ...) go to the log at debug:
        // voicerack's error says what they mean, once.
        let level = request.logLevel
        let jackLog = Logger(label: "voicerack") { _ in
            ConsoleLogHandler(level: level, timestamps: isatty(STDOUT_FILENO) != 1)
        }
        JACKMessages.route { jackLog.debug("libjack: \($0)") }
        let recorder = LiveRecorder(request.recording)
        let streaming: LiveStreaming?
        let driver: JACKDriver
        let loop: LiveLoop
        do throws(HostError) {
            try recorder.check(client: request.options.name)
            if let path = request.backingPath { _ = try BackingTrack.open(path) }
            streaming = try request.stream.map { (settings) throws(HostError) in
                try LiveStreaming(settings: settings, tap: request.streamTap)
            }
            // Stopped (SIGINT, SIGTERM) while waiting for a server: nothing was started yet.
            guard let opened = try ServerWait.openDriver(request, signals: signals) else { return }
            driver = opened
            let options = request.options
            loop = try LiveLoop(
                request, driver: driver, reopen: { ServerWait.reopen(options) }, recorder: recorder,
                streaming: streaming, hub: hub)
            try loop.start()
        } catch {
            request.sessionManager?.answerOpen(.failure(.init(.general, error.message)))
            throw error
        }
        defer { loop.backing?.stop() }
        if let manager = request.sessionManager {
            manager.answerOpen(
                .success("voicerack runs as JACK client '\(driver.clientName)', preset \(request.presetName)"))
        }
        for line in surfaceLines { loop.out.always(line) }
        while true {
            if let signal = signals.wait(seconds: hub.wantsMeters ? 1.0 / 60 : 0.1), signal.number != SIGURG {
                if try loop.handle(signal) { return }
                continue
            }
            try loop.tick()
            if let reason = loop.quitRequested {
                loop.stop(on: reason)
                return
            }
        }
    }
}
