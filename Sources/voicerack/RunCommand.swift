import ArgumentParser
import Foundation
import VoiceControl
import VoiceCycle
import VoiceFiles
import VoiceHost
import VoiceJACK
import VoiceOSC
import VoicePresets
import VoiceRecorder
import VoiceStream
import VoiceWeb

/// `voicerack run`: the live JACK client.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run as a JACK client until SIGINT/SIGTERM.",
        discussion: """
            Ports: mic_in, far_in_L, far_in_R (inputs); voice_out, speaker_out_L, speaker_out_R, \
            monitor_out_L, monitor_out_R (outputs). far_in is copied to speaker_out and is the echo \
            reference. By default mic_in is connected to the first physical capture port and \
            speaker_out_L/R to the first two physical playback ports; voice_out is never connected \
            to the speakers.

            Recording: --record FILE records the processed voice; --record TAP=FILE records a tap: \
            voice, mic (raw), reference (far end as sent to the speakers, 2 ch), monitor (2 ch) or \
            tuning (mic, reference mix and voice in 3 sample-aligned channels). FILE may contain \
            {date}, {time} (HHMMSS), {ms} (its milliseconds), {n} (the take of this run, from 1), \
            {client} and {tap}. A name a take of this run already wrote is never reused, even with \
            --force: the new take gets -2, -3 ... before the extension, and its log line says so. Bad formats are refused (64), as are files that \
            cannot be created or exist without --force (73), before the client starts.

            Backing track: --backing FILE (or the preset's [backing] file) plays a track (any format \
            libsndfile reads, mono or stereo, resampled to JACK's rate, read ahead by its own thread) \
            on speaker_out_L/R at backing.level_db, added after ducking, so it is part of the echo \
            reference (its echo is cancelled from the mic) and of the monitor's far mix. The karaoke \
            tap (--record karaoke=FILE) records voice + backing in stereo, the backing delayed to line \
            up with the voice. SIGUSR2 pauses or resumes the track (with a 20 ms fade). A missing \
            file exits 66, one that is not mono/stereo audio 65, before the client opens.

            SIGUSR1 starts or stops recording: stopping finalises the files and prints what was \
            written; starting opens new files from the same templates (so {time} differs). Without \
            --record, SIGUSR1 records the voice to voicerack-{client}-{date}-{time}-{tap}.wav in the \
            current folder. Example: kill -USR1 $(pidof voicerack)

            After a crash or SIGKILL a take stays readable: WAV (the default), W64, RF64, CAF and \
            AIFF lose under 0.1 s; FLAC, Opus and MP3 (written at a constant bitrate) about 0.15 s; \
            Ogg Vorbis up to about 2 s (libsndfile cannot flush a partial Vorbis page).

            The status line shows the worst callback time as % of the period and, while recording, \
            the files and frames lost to a slow disk (the files keep their timeline: lost frames \
            are written as silence). SIGINT/SIGTERM finalise every file and print a summary.

            Live changes: SIGHUP re-reads the preset (its file, or the shipped preset of that name) \
            and applies every changed key that can change while running, gliding without clicks: \
            input/output gain, agc levels, every effect unit's parameters (LV2 units' controls \
            too), monitor levels and pan, ducking depth, monitor.feedback_guard, the residual echo \
            post-filter's preprocessor.residual_suppression, coherence_suppression, \
            clipping_coherence_suppression and leftover_echo_suppression, and \
            residual_echo_gate_db (so load echo-cancel-strong from echo-cancel needs no \
            restart). A different chain \
            (chain.order, LV2 plugins or their states) is built off the process thread and swapped \
            in. Other keys that shape the engine (frame_ms, tail_ms, delay settings, other \
            preprocessor settings, highpass_hz, monitor enabled or source, ducking times) are reported as \
            "needs a restart" and ignored. A preset that \
            does not load is reported with file:line and the key; the running setup stays. \
            Example: kill -HUP $(pidof voicerack)

            --control reads commands from standard input, one per line: set KEY VALUE (keys as in \
            presets, e.g. set compressor.threshold_dbfs -18, set monitor.master_db -6; an LV2 unit's \
            control by port symbol, e.g. set peak.threshold -2, checked against its range), get KEY, \
            show, load PRESET, unmute, record, stop, pause or backing play|pause (the backing track), \
            mute on|off, stream start|stop, status, help. A bad key or value is \
            answered with the key and its allowed range. On a terminal the prompt keeps the bottom \
            row: the status line and the log never overwrite what you type.

            Feedback guard: when the monitor plays through speakers and the loop howls (a narrow \
            peak growing in the mic), the monitor is muted (a 20 ms glide) and a line names the \
            frequency. Use headphones or lower monitor.master_db, then unmute with SIGHUP or \
            `unmute`.

            Streaming: --stream icecast://USER@HOST:PORT/MOUNT (or the preset's [stream] url) \
            sends a tap (--stream-tap, default voice) to Icecast as Opus or MP3 while recording goes \
            on; a dropped connection reconnects with backoff, and the status line shows the state, \
            bitrate and time on air. The password comes from the URL, --stream-password-env or \
            --stream-password-file (a preset names only the variable or the file) and is never \
            printed. Bad settings exit 64, an unreachable server 69 and refused credentials 77, \
            before the client opens. SIGRTMIN+1 starts or stops the stream (SIGUSR1 and SIGUSR2 \
            are taken), as `stream start|stop` does with --control; with stream.autostart = false \
            the stream waits for it. Example: kill -s RTMIN+1 $(pidof voicerack)

            OSC: --osc PORT listens for OSC messages on UDP 127.0.0.1:PORT. --osc-secret-file FILE \
            makes every message carry the secret on the file's first line as its first argument \
            (s); others are refused, and the secret is never printed or sent back. --osc-host \
            listens elsewhere: beyond loopback it needs --osc-secret-file (the secret travels \
            unencrypted: a trusted network only). Every message is answered, at the \
            sender's address: /voicerack/reply ADDRESS LINE... or /voicerack/error ADDRESS MESSAGE \
            naming what is wrong. Commands run on the main thread, exactly like --control's. \
            Example: oscsend localhost 9000 /voicerack/set sf monitor.master_db -6. The addresses:

            \(OSCAddressSpace.help.joined(separator: "\n\n"))

            NSM: when NSM_URL is set (New Session Manager, RaySession, Agordejo), voicerack announces \
            itself (capabilities :dirty:message:) and opens its JACK client only once the manager \
            opens a session, named with the session's client id. The session's folder holds its \
            preset copy (preset.toml, written from --preset when new; read back when the session is \
            opened again) and a recordings folder that relative --record names and the default \
            take go to. Save writes the running setup with its live changes to preset.toml \
            atomically; live changes mark the session dirty, saves clean; warnings and errors go to \
            the manager as messages; SIGTERM from the manager finalises the recordings and quits. \
            Started without arguments under a session manager, voicerack runs with the echo-cancel \
            preset.

            Web panel: --web [HOST:]PORT serves a control panel to a browser: live meters (levels \
            with peak hold and clip lamps, echo removal, delay, drift, voice activity, leveller, \
            load, xruns, recording) 25 times a second with a 30 s history, a control per preset key \
            (restart-only keys marked), record start/stop, backing pause and \
            level, monitor unmute, voice mute, preset load and save. It listens on 127.0.0.1 unless \
            another host is given (with a warning), and only answers the address printed at start, \
            which carries a random token. Example: voicerack run --web 8080, then open the printed \
            http://127.0.0.1:8080/?token=... address.

            Freewheel and transport: --record-on-freewheel records only while the server \
            freewheels (render a session faster than real time: start voicerack, then \
            `jack_freewheel 1`, and `jack_freewheel 0` when done); nothing is lost, since the \
            recorder and the backing track are waited for (there is no deadline in freewheel), and \
            xrun and overrun counts pause. --record-on-transport records only while the JACK \
            transport rolls. Either way each run or roll is a take of its own: NAME.wav, \
            NAME-take2.wav, ...; WAV, WAVEX and RF64 takes carry the transport frame of their first \
            sample as their BWF time reference. The files of the next take are opened when a take \
            ends; a roll that starts within a few tenths of a second of the last stop begins its \
            take late (the time reference still names its first sample).

            Exits with 69 when the JACK server is not running or shuts down (recordings are \
            finalised first).
            """)

    @Option(
        name: .long, help: "Preset name (see `voicerack presets list`) or path to a .toml file.",
        completion: PresetCompletion.kind)
    var preset: String = "echo-cancel"

    @Option(name: .long, help: "JACK client name.")
    var name: String = "voicerack"

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER or 'default').")
    var server: String?

    @Flag(name: .long, help: "Do not connect any port; leave the patching to the user.")
    var noAutoConnect = false

    @Flag(
        name: .long,
        help:
            "Wait for the JACK server instead of exiting 69: at start, until one runs (the systemd user unit and the launcher use this); later, when it goes away, finalise the recordings, wait for it to come back and go on with the same ports and connections, recording into new files (NAME-take2.wav, ...)."
    )
    var waitForServer = false

    @Flag(
        name: .long,
        help:
            "Record (--record) only while the JACK server freewheels, as jack_capture -jf does: start voicerack, then freewheel the session (jack_freewheel 1) to render it through voicerack faster than real time. Nothing is dropped meanwhile: the recorder and the backing track are waited for. Each freewheel run is a take of its own (NAME.wav, NAME-take2.wav, ...), and starts from a freshly built engine, so the take equals `voicerack process` of what was played."
    )
    var recordOnFreewheel = false

    @Flag(
        name: .long,
        help:
            "Record (--record) only while the JACK transport rolls: a take per roll (NAME.wav, NAME-take2.wav, ...), each WAV/RF64 stamped with the transport frame of its first sample (the BWF bext time reference)."
    )
    var recordOnTransport = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record from the start: FILE (the voice) or TAP=FILE, TAP one of voice, mic, reference, monitor, tuning, karaoke. Repeatable. Files stay readable after a crash, but a SIGKILL loses up to about 2 s of Ogg Vorbis (WAV, the default, under 0.1 s).",
            valueName: "spec"))
    var record: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Recording format CONTAINER[:ENCODING], e.g. wav:pcm24, flac, w64 (default from each file's extension).",
            valueName: "format"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("Seconds of audio buffered while the disk is slow.", valueName: "seconds"))
    var recordBuffer: Double = 10

    @Flag(name: .long, help: "Overwrite recording files that exist.")
    var force = false

    @Flag(
        name: .long,
        help:
            "Read commands from standard input: set KEY VALUE, get KEY, show, load PRESET, unmute, record, stop, pause, mute on|off, status, help."
    )
    var control = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Listen for OSC control messages on this UDP port (127.0.0.1 unless --osc-host; 0 picks a free port; see below).",
            valueName: "port"))
    var osc: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Address OSC listens on (default 127.0.0.1; 0.0.0.0 or a LAN address lets other machines control voicerack, with a warning).",
            valueName: "host"))
    var oscHost = "127.0.0.1"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file whose first line (8 to 256 bytes) every OSC message must carry as its first argument; needed with --osc-host beyond loopback.",
            valueName: "file"), completion: .file())
    var oscSecretFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Backing track to play on speaker_out_L/R (overrides the preset's backing.file); SIGUSR2 pauses/resumes it.",
            valueName: "file"), completion: .file())
    var backing: String?

    @Flag(
        name: .long,
        help:
            "The backing track follows the JACK transport: it plays while the transport rolls, from the transport's frame (a locate moves it; the transport waits until the track is read ahead from there)."
    )
    var backingFollowsTransport = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Least severe log lines printed: \(LogLevelChoice.names.joined(separator: ", ")). Lines carry a UTC timestamp and the level when standard output is not a terminal.",
            valueName: "level"))
    var logLevel = "info"

    @OptionGroup(title: "Streaming") var streaming: StreamArguments
    @OptionGroup(title: "PipeWire desktop") var pipeWire: PipeWireArguments

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the web control panel on PORT or HOST:PORT (127.0.0.1 unless a host is given); open the printed address.",
            valueName: "[host:]port"))
    var web: String?

    func validate() throws {
        if let web {
            do { _ = try PanelAddress(parsing: web) } catch { throw ValidationError(error.description) }
        }
        guard LogLevelChoice.parse(logLevel) != nil else {
            throw ValidationError(
                "--log-level \(logLevel) is not a level; use one of \(LogLevelChoice.names.joined(separator: ", "))")
        }
        try pipeWire.validate(noAutoConnect: noAutoConnect)
        if let problem = JACKNames.clientNameProblem(name) { throw ValidationError("--name: \(problem)") }
        if let server, let problem = JACKNames.serverNameProblem(server) {
            throw ValidationError("--server: \(problem)")
        }
        if server == nil, let fromEnvironment = ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"],
            let problem = JACKNames.serverNameProblem(fromEnvironment)
        {
            throw ValidationError("JACK_DEFAULT_SERVER: \(problem)")
        }
        if let osc, !(0...65535).contains(osc) {
            throw ValidationError("--osc \(osc) is not a UDP port; use 1-65535 (0: any free port, printed at start)")
        }
        if osc == nil, oscHost != "127.0.0.1" { throw ValidationError("--osc-host needs --osc PORT") }
        if osc == nil, oscSecretFile != nil { throw ValidationError("--osc-secret-file needs --osc PORT") }
        if recordOnFreewheel && recordOnTransport {
            throw ValidationError("--record-on-freewheel and --record-on-transport exclude each other; give one")
        }
        if (recordOnFreewheel || recordOnTransport) && record.isEmpty {
            throw ValidationError(
                "--record-on-\(recordOnFreewheel ? "freewheel" : "transport") says when to record; give what with --record FILE or --record TAP=FILE"
            )
        }
        guard recordBuffer >= 0.1, recordBuffer <= 600 else {
            throw ValidationError("--record-buffer \(recordBuffer) is out of range; use 0.1-600 seconds")
        }
    }

    func run() throws {
        LV2Hosting.install(live: true)
        do {
            let loaded = try PresetLibrary.standard().load(preset)
            var recording = LiveRecordingOptions()
            recording.targets = try LiveRecordingOptions.parse(record)
            // --format, else the preset's [recording] format, else each file's extension.
            let chosenFormat =
                format ?? (loaded.configuration.recordingFormat.isEmpty ? nil : loaded.configuration.recordingFormat)
            if let chosenFormat {
                do { recording.format = try AudioFormat(parsing: chosenFormat) } catch {
                    throw HostError(
                        .usage,
                        (format != nil ? "--format" : "\(loaded.source): recording.format") + ": \(error.description)")
                }
            }
            recording.bufferSeconds = recordBuffer
            recording.force = force
            var request = LiveRequest(
                options: JACKDriver.Options(name: name, server: server), configuration: loaded.configuration,
                presetName: loaded.name)
            request.autoConnect = !noAutoConnect
            do {
                request.pipeWire = try pipeWire.settings(noAutoConnect: noAutoConnect, preset: loaded.configuration)
            } catch let error as ValidationError {
                throw HostError(.usage, error.message)
            }
            request.waitForServer = waitForServer
            request.recordingGate = recordOnFreewheel ? .freewheel : recordOnTransport ? .transport : .always
            request.recording = recording
            request.presetArgument = preset
            request.control = control
            request.logLevel = LogLevelChoice.parse(logLevel) ?? .info
            // Checked in validate().
            if let address = web.flatMap({ try? PanelAddress(parsing: $0) }) {
                request.surfaces.append(Self.webPanel(at: address, preset: loaded.name))
            }
            request.backingPath =
                backing ?? (loaded.configuration.backingFile.isEmpty ? nil : loaded.configuration.backingFile)
            if backingFollowsTransport && request.backingPath == nil {
                throw HostError(
                    .usage,
                    "--backing-follows-transport: no backing track; give --backing FILE or the preset's backing.file")
            }
            request.backingFollowsTransport = backingFollowsTransport
            if let (settings, tap) = streaming.settings(loaded.configuration) {
                request.stream = settings
                request.streamTap = tap
                // --stream always starts at once; the preset's section may wait for a signal.
                request.streamAutostart = streaming.stream != nil || loaded.configuration.streamAutostart
            }
            if let osc {
                do {
                    let secret = try oscSecretFile.map { (path) throws(OSCSecretError) in try OSCSecret(file: path) }
                    request.surfaces.append(OSCSurface(host: oscHost, port: osc, secret: secret))
                } catch {
                    throw HostError(.usage, error.message)
                }
            }
            if let url = ProcessInfo.processInfo.environment["NSM_URL"], !url.isEmpty {
                do {
                    request.sessionManager = try NSMClient(url: url, executable: CommandLine.arguments[0])
                } catch {
                    throw HostError(.usage, error.message)
                }
            }
            try LiveSession.run(request)
        } catch {
            throw failureExit(reporting: error)
        }
    }
}

extension Run {
    /// The web panel for `--web`: the keys that need a restart from the preset schema, the
    /// preset library to load from, and saving into the first preset folder (`$VOICERACK_PRESETS`,
    /// else the user's).
    static func webPanel(at address: PanelAddress, preset: String) -> WebSurface {
        WebSurface(
            address: address, preset: preset, restartKeys: PresetEdit.restartKeys(),
            presets: { PresetLibrary.standard().names() },
            presetFolder: { PresetLibrary.standardSearchPath().first?.path })
    }
}
