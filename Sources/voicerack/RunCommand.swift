import ArgumentParser
import Foundation
import VoiceControl
import VoiceCycle
import VoiceFiles
import VoiceHost
import VoiceJACK
import VoiceOSC
import VoicePipeWire
import VoicePresets
import VoiceRecorder
import VoiceStream
import VoiceWeb

/// `voicerack run`: the live JACK client.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run as a JACK client until SIGINT/SIGTERM.",
        discussion: RunHelp.discussion)

    @Option(
        name: .long, help: "Preset name or .toml file.",
        completion: PresetCompletion.kind)
    var preset: String = "echo-cancel"

    @Option(name: .long, help: "JACK client name.")
    var name: String = "voicerack"

    @Option(name: .long, help: "JACK server name (else $JACK_DEFAULT_SERVER).")
    var server: String?

    @Flag(name: .long, help: "Connect no port; leave the patching to you.")
    var noAutoConnect = false

    @Flag(
        name: .long,
        help: "Wait for the JACK server instead of exiting 69.")
    var waitForServer = false

    @Flag(
        name: .long,
        help: "No loudness meter (agc.target_lufs needs it).")
    var noLoudnessMeter = false

    @Flag(
        name: .long,
        help: "Record only while the server freewheels.")
    var recordOnFreewheel = false

    @Flag(
        name: .long,
        help: "Record only while the JACK transport rolls.")
    var recordOnTransport = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The voice or a tap; SIGKILL loses <0.2 s (Vorbis 2 s).",
            valueName: "[tap=]file"))
    var record: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Recording format, e.g. wav:pcm24, flac, w64.",
            valueName: "format"), completion: ValueCompletion.format)
    var format: String?

    @Option(name: .long, help: ArgumentHelp("Seconds buffered for a slow disk.", valueName: "secs"))
    var recordBuffer: Double = 10

    @Flag(name: .long, help: "Overwrite recording files that exist.")
    var force = false

    @Flag(
        name: .long,
        help: "Read commands from standard input (type help).")
    var control = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Listen for OSC on this UDP port (0: any free).",
            valueName: "port"))
    var osc: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Address OSC listens on.",
            valueName: "host"))
    var oscHost = "127.0.0.1"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file whose first line every OSC message carries.",
            valueName: "file"), completion: .file())
    var oscSecretFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Send OSC replies to this port on the sender's host.",
            valueName: "port"))
    var oscReplyPort: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Backing track for speaker_out_L/R (SIGUSR2 pauses).",
            valueName: "file"), completion: .file())
    var backing: String?

    @Flag(
        name: .long,
        help: "The backing track follows the JACK transport.")
    var backingFollowsTransport = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Least severe log level printed.",
            valueName: "level"), completion: ValueCompletion.logLevel)
    var logLevel = "info"

    @OptionGroup var deepFilter: DeepFilterArguments

    @OptionGroup(title: "Streaming") var streaming: StreamArguments
    @OptionGroup(title: "PipeWire desktop") var pipeWire: PipeWireArguments

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the web panel on [HOST:]PORT (127.0.0.1).",
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
        if let oscReplyPort {
            guard osc != nil else { throw ValidationError("--osc-reply-port needs --osc PORT") }
            guard (1...65535).contains(oscReplyPort) else {
                throw ValidationError("--osc-reply-port \(oscReplyPort) is not a UDP port; use 1-65535")
            }
        }
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
        deepFilter.apply()
        let plugins = LV2Hosting.host(live: true)
        do {
            let loaded = try PresetLibrary.standard(pluginHost: plugins).load(preset)
            var recording = LiveRecordingOptions()
            recording.targets = try LiveRecordingOptions.parse(record)
            // --format, else the preset's [recording] format, else each file's extension.
            let chosenFormat =
                format ?? (loaded.session.recordingFormat.isEmpty ? nil : loaded.session.recordingFormat)
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
                sessionSettings: loaded.session, presetName: loaded.name)
            request.pluginHost = plugins
            request.autoConnect = !noAutoConnect
            do {
                request.pipeWire = try pipeWire.settings(noAutoConnect: noAutoConnect, preset: loaded.settings.session)
            } catch let error as ValidationError {
                throw HostError(.usage, error.message)
            }
            request.waitForServer = waitForServer
            if noLoudnessMeter, loaded.session.levellerTargetLUFS != 0 {
                throw HostError(
                    .usage,
                    "--no-loudness-meter: preset \(loaded.name) sets agc.target_lufs, which steers the leveller from the meter; drop the flag or set agc.target_lufs = 0"
                )
            }
            request.loudnessMeter = !noLoudnessMeter
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
                backing ?? (loaded.session.backingFile.isEmpty ? nil : loaded.session.backingFile)
            if backingFollowsTransport && request.backingPath == nil {
                throw HostError(
                    .usage,
                    "--backing-follows-transport: no backing track; give --backing FILE or the preset's backing.file")
            }
            request.backingFollowsTransport = backingFollowsTransport
            if let (settings, tap) = streaming.settings(loaded.session) {
                request.stream = settings
                request.streamTap = tap
                // --stream always starts at once; the preset's section may wait for a signal.
                request.streamAutostart = streaming.stream != nil || loaded.session.streamAutostart
            }
            if let osc {
                do {
                    let secret = try oscSecretFile.map { (path) throws(OSCSecretError) in try OSCSecret(file: path) }
                    request.surfaces.append(
                        OSCSurface(
                            host: oscHost, port: osc, secret: secret, replyPort: oscReplyPort,
                            parameters: PresetEdit.parameterKeys()))
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
    /// else the user's), and the token kept in the user's config folder (`voicerack panel`).
    static func webPanel(at address: PanelAddress, preset: String) -> WebSurface {
        WebSurface(
            address: address, preset: preset, restartKeys: PresetEdit.restartKeys(),
            presets: { PresetLibrary.standard(pluginHost: nil).names() },
            presetFolder: { PresetLibrary.standardSearchPath().first?.path }, tokenFile: PanelTokenFile())
    }
}
