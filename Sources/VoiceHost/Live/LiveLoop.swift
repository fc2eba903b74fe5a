import Foundation
import Glibc
import VoiceControl
import VoiceCycle
import VoiceEngine
import VoicePipeWire

/// One live session's parts and the main thread's work between signals.
///
/// It drives a `LiveDriver`, never a concrete one: the JACK driver today, and any other live
/// driver the same way. `reopen` gives it a new client of the same kind when the server came back
/// (`--wait-for-server`).
///
/// - Realtime: never; main thread.
final class LiveLoop {
    let request: LiveRequest
    /// Replaced by a new client when the server comes back (`--wait-for-server`).
    var driver: any LiveDriver
    /// A new client on the same server with the same options, quietly; nil while none answers.
    let reopen: () -> (any LiveDriver)?
    let host: CycleHost
    let recorder: LiveRecorder
    let streaming: LiveStreaming?
    /// voice_out's loudness, and `agc.target_lufs`'s loop; nil with `--no-loudness-meter`.
    let loudness: LiveLoudnessMeter?
    let backing: BackingTrack?
    let out: StatusOutput
    var control: LiveControl
    let commands: StandardInputLines?
    /// Commands from the control surfaces (OSC, the web panel) and the snapshot they read.
    let hub: ControlHub
    /// `--wait-for-server`: the connections to make again, whether the server is awaited, the take.
    var restart = ServerRestart()
    /// `--record-on-freewheel`/`--record-on-transport`: what was last logged (LiveLoop+Takes.swift).
    var takes = TakeWatch()
    /// `--pipewire`: the links made and when to look again (LiveLoop+PipeWire.swift).
    var pipeWire = PipeWireLinking()
    private var lastStatus = Date()
    /// The terminal's status line (bars with peak hold).
    private var terminal = TerminalStatus()
    /// Live changes applied (`set`, `load`, SIGHUP), and how many there were at the last save:
    /// the snapshot's `unsavedChanges` (a session manager's dirty flag).
    var liveChanges = 0
    var savedChanges = 0
    /// The newest warning and error lines, and how many there were, for the snapshot.
    var recentProblems: [String] = []
    var problemCount = 0
    /// When the running recordings started (`ProcessInfo.systemUptime`), for `REC 00:12:31`.
    var recordingStarted: Double?
    /// What asked the session to end from `--control` (`quit`, `exit`, `Ctrl-D`); the session
    /// stops after this tick.
    var quitRequested: String?
    private var blockSize: Int
    private var feedbackEvents = 0
    private var mutedTalkEvents = 0
    private var server: String { request.options.serverDisplayName }

    /// Builds the engine for the driver's rate and period and opens the backing track; closes
    /// the driver when that fails.
    init(
        _ request: LiveRequest, driver: any LiveDriver, reopen: @escaping () -> (any LiveDriver)?,
        recorder: LiveRecorder, streaming: LiveStreaming?, hub: ControlHub = ControlHub()
    ) throws(HostError) {
        self.request = request
        self.hub = hub
        self.driver = driver
        self.reopen = reopen
        self.recorder = recorder
        self.streaming = streaming
        out = StatusOutput(level: request.logLevel, prompt: request.control)
        do {
            host = try CycleHost(
                configuration: request.configuration, sampleRate: driver.sampleRate, blockSize: driver.blockSize,
                karaokeDB: (request.sessionSettings.karaokeVoiceDB, request.sessionSettings.karaokeBackingDB),
                pluginHost: request.pluginHost)
            backing = try request.backingPath.map { (path) throws(HostError) in
                try BackingTrack(
                    path: path, sampleRate: driver.sampleRate, levelDB: request.sessionSettings.backingLevelDB,
                    loop: request.sessionSettings.backingLoop)
            }
        } catch EngineError.plugin(let error) {
            driver.close()
            throw HostError(.data, error.message)
        } catch let error as EngineError {
            driver.close()
            if let missing = error.learnedStageMissing {
                throw HostError(missing ? .unavailable : .configuration, error.description)
            }
            throw HostError(.unavailable, "the JACK server's settings do not suit the engine: \(error.description)")
        } catch let error as HostError {
            driver.close()
            throw error
        } catch {
            driver.close()
            throw HostError(.unavailable, "\(error)")
        }
        blockSize = driver.blockSize
        loudness =
            request.loudnessMeter
            ? LiveLoudnessMeter(
                sampleRate: driver.sampleRate, session: request.sessionSettings,
                configuration: request.configuration) : nil
        recorder.loudness = loudness
        control = LiveControl(
            host: host, session: request.sessionSettings, preset: request.presetArgument ?? request.presetName,
            backing: backing, recorder: recorder, streaming: streaming)
        commands = request.control ? StandardInputLines() : nil
    }

    /// Opens the first recordings, starts the backing reader and the driver, connects ports.
    func start() throws(HostError) {
        if let backing {
            backing.source.pointee.followsTransport = request.backingFollowsTransport
            host.attachBacking(backing.source)
            backing.start()
        }
        var startLines: [String] = []
        prepareGate()
        do {
            // The meter rides in every route set; without a recording from the start, alone.
            if loudness != nil, !recorder.recordsFromStart, !recorder.reroute(host, extra: recorder.extraRoutes) {
                throw HostError(.io, "the process thread did not take the loudness meter")
            }
            if let loudness { startLines.append(loudness.startLine) }
            if recorder.recordsFromStart {
                startLines += try recorder.start(host, client: driver.clientName)
                recordingStarted = ProcessInfo.processInfo.systemUptime
                if let line = gateStartLine { startLines.append(line) }
            }
            if let streaming {
                startLines.append(
                    request.streamAutostart
                        ? try streaming.start(host, recorder: recorder)
                        : "stream to \(streaming.target) ready; start it with `stream start` or \(StreamSignal.killCommand)"
                )
            }
            try driver.start(host)
        } catch let error as HostError {
            driver.close()
            _ = recorder.stop(detachingFrom: host, force: true)
            throw error
        } catch {
            driver.close()
            _ = recorder.stop(detachingFrom: host, force: true)
            throw HostError(.unavailable, "\(error)")
        }
        let status = host.status()
        out.log(StatusText.started(status, client: driver.clientName, server: server, preset: request.presetName))
        for line in startLines { out.log(line) }
        for note in host.engineNotes { out.log(note, level: .warning) }
        if driver.clientName != request.options.name {
            out.log("note: the name '\(request.options.name)' was taken; JACK named this client '\(driver.clientName)'")
        }
        if request.pipeWire != nil {
            startPipeWireLinks()
        } else if !request.sessionSettings.autoConnect {
            out.log(
                "auto-connect is off (jack.auto_connect = false in preset \(request.presetName)): no port connected")
        } else if request.autoConnect {
            for note in driver.autoConnect() { out.log(note) }
        }
        if commands != nil { out.log("reading commands from standard input (help lists them)") }
    }

    /// Handles one signal; returns true when the session has ended cleanly.
    func handle(_ signal: TakenSignal) throws(HostError) -> Bool {
        switch signal.number {
        case SIGUSR1:
            toggleRecording()
        case SIGUSR2:
            out.log(BackingText.toggle(backing))
        case StreamSignal.number:
            out.log(toggleStream())
        case SIGHUP where !signal.fromKernel:
            let before = control.running
            let reply = control.reload()
            if control.running != before { liveChanges += 1 }
            for line in reply.lines { out.log(ControlText.escaped(line), level: reply.succeeded ? .info : .warning) }
        default:
            // SIGINT, SIGTERM, or SIGHUP from the kernel: the terminal hung up, so nobody can
            // stop us any more; stop cleanly now rather than record into the void.
            let name =
                signal.number == SIGINT ? "SIGINT" : signal.number == SIGTERM ? "SIGTERM" : "a hang-up of the terminal"
            stop(on: name)
            return true
        }
        return false
    }

    /// Ends the session cleanly, as SIGINT does: finalises, leaves the server, prints the summary
    /// and clears the status line. `reason` names what asked (`SIGINT`, `quit`, `Ctrl-D`).
    func stop(on reason: String) {
        out.log("stopping on \(reason); xruns \(driver.status().xruns)")
        finish()
        if let backing {
            backing.stop()
            out.log("summary: " + BackingText.summary(backing))
        }
        out.restoreScreen()
    }

    /// The work between signals: server shutdown, a changed sample rate, recording problems,
    /// commands, latency, the delay seed and the status line. Throws `.unavailable` after
    /// finalising when the server went away or changed its rate.
    func tick() throws(HostError) {
        // --wait-for-server (LiveLoop+ServerRestart.swift): without a server only that runs.
        if restart.waiting {
            // No engine to run commands on: the surfaces hear why at once instead of waiting.
            for pending in hub.take() {
                pending.reply(
                    .failure("the JACK server '\(server)' is away; voicerack waits for it (--wait-for-server)"))
            }
            try retryServer()
            return
        }
        if driver.serverHasShutDown, request.waitForServer {
            serverWentAway()
            return
        }
        if driver.serverHasShutDown {
            let reason = driver.shutdownReason.map { ": \($0)" } ?? ""
            out.endLine()
            out.log("JACK server '\(server)' shut down\(reason); finalising", level: .error)
            finish()
            throw HostError(.unavailable, "JACK server '\(server)' shut down while voicerack was running\(reason)")
        }
        if let rate = driver.changedSampleRate {
            out.endLine()
            let message =
                "JACK switched the sample rate from \(driver.sampleRate) to \(rate) Hz; the engine and the recordings are built for \(driver.sampleRate) Hz. Restart voicerack to continue at \(rate) Hz"
            out.log(message + "; finalising", level: .error)
            finish()
            throw HostError(.unavailable, message)
        }
        for line in recorder.newProblems() { out.log(line, level: .error) }
        for line in streaming?.takeMessages() ?? [] { out.log(line, level: line.contains("stopped") ? .error : .info) }
        for line in commands?.take() ?? [] where quitRequested == nil { runTextCommand(line) }
        // Ctrl-D on a terminal ends the session; the end of piped commands only ends the input.
        if let commands, commands.ended, commands.isTerminal, quitRequested == nil { quitRequested = "Ctrl-D" }
        runSubmittedCommands()
        reportEvents()
        if let latency = host.refreshLatency() {
            out.log("voice_out latency is now \(latency) samples (a plugin changed its reported latency)")
        }
        followTakes()
        if let warning = loudness?.steer(host) { out.log(warning, level: .warning) }
        keepPipeWireLinks()
        driver.updateLatenciesIfNeeded()
        if let delay = driver.echoPathLatency(), host.seedReferenceDelay(samples: delay) {
            out.log(
                "reference delay seeded from JACK latencies: \(delay) samples (playback + capture); the estimator refines it"
            )
        }
        let now = host.status()
        let driverStatus = driver.status()
        let snapshot = publishSnapshot(now, driverStatus)
        if now.blockSize != blockSize {
            blockSize = now.blockSize
            out.log(
                "JACK buffer size is now \(now.blockSize) samples; voice latency \(now.latency) samples (\(HealthText.milliseconds(now.latency, rate: now.sampleRate)))"
            )
        }
        if Date().timeIntervalSince(lastStatus) >= out.interval {
            lastStatus = Date()
            let stream = streaming?.status
            terminal.loudness = loudness?.figures.statusText
            out.status(
                { width in terminal.line(snapshot, now, stream: stream, time: snapshot.time, width: width) },
                logLine: StatusText.line(
                    now, driverStatus,
                    recording: [loudness?.figures.statusText, recorder.statusText, streaming?.statusText].compactMap {
                        $0
                    }.joined(separator: "  ")))
        }
        if request.waitForServer { rememberConnections() }
    }

    /// Logs what the engine, the cycle and the backing reader reported since the last tick.
    private func reportEvents() {
        let status = host.status()
        if status.mutedTalkEvents > mutedTalkEvents {
            mutedTalkEvents = status.mutedTalkEvents
            out.log("you are talking while muted (voice_out is muted; `mute off` to open it)", level: .warning)
        }
        let health = status.health
        if health.feedbackEvents > feedbackEvents {
            feedbackEvents = health.feedbackEvents
            out.log(StatusText.feedback(health), level: .warning)
        }
        if let problem = backing?.problem.withLock({ p in
            defer { p = nil }
            return p
        }) {
            out.log(problem, level: .error)
        }
    }

    /// SIGUSR1: stops and finalises the recordings, or starts new ones from the templates.
    private func toggleRecording() {
        if recorder.isRecording {
            out.log("SIGUSR1: stopping the recording")
            for line in stopRecording() { out.log(line) }
        } else {
            for line in startRecording().lines { out.log("SIGUSR1: " + line) }
        }
    }

    /// Takes the recordings from the process thread and finalises them, then leaves the server
    /// within a timeout, and prints the summary. A second SIGINT/SIGTERM while leaving exits at
    /// once (the files are already final).
    func finish() {
        stopPipeWireWatch()
        if let line = streaming?.stop(host, recorder: recorder) { out.log("summary: " + line) }
        // An armed take whose gate never opened leaves no empty files behind.
        for line in recorder.stop(detachingFrom: host, discardingEmpty: request.recordingGate != .always)
        where line.hasPrefix("no ") {
            out.log("summary: " + line)
        }
        recordingStarted = nil
        for line in recorder.finishedLines { out.log("summary: " + line) }
        SignalWaiter.exitOnNextSignal(
            [SIGINT, SIGTERM], code: HostError.Kind.unavailable.rawValue,
            message: "second signal: exiting without waiting for the JACK server (the recordings are finalised)")
        if !driver.close(timeout: 5) {
            out.log("the JACK server did not answer within 5 s (stopped or hung?); leaving it", level: .warning)
        }
        // A process thread that kept the recordings cannot run any more now.
        if recorder.isRecording {
            for line in recorder.stop(detachingFrom: host, force: true) { out.log("summary: " + line) }
        }
        if let line = streaming?.stop(host, recorder: recorder, force: true) { out.log("summary: " + line) }
        if host.liveConfiguration.echoCancellation {
            let erle = host.status().health.echoReturnLossEnhancement
            out.log(
                "summary: "
                    + (erle > 0 ? HealthText.erle(erle) : "echo removed: not measured (the far end never played alone)")
            )
        }
        // The driver is closed: nothing feeds the meter any more.
        loudness?.stop()
        let recorded = !recorder.finishedLines.isEmpty || !(streaming?.finishedLines.isEmpty ?? true)
        out.log("summary: " + RecordingText.timing(driver.status(), recorded: recorded))
        out.restoreScreen()
    }
}
