import CJack
import CJackShim
import Foundation
import Synchronization
import VoiceEngine

/// A `VoiceEngine` handed between the main and the notification thread under `JACKClient.engine`'s
/// mutex. The engine class is not Sendable; only one thread uses it at a time (the mutex), and the
/// process thread never sees this box (it has the state pointer in the engine slot).
struct OwnedEngine: @unchecked Sendable {
    var engine: VoiceEngine
    /// The delay seed last posted, and to which engine (a swapped-in engine needs it again).
    var postedSeed = -1
    var seededEngine: ObjectIdentifier?
    /// What the running engine runs, live changes included (see JACKClient+Parameters.swift);
    /// a buffer-size change builds the new engine from it.
    var configuration: EngineConfiguration
    init(_ engine: VoiceEngine) {
        self.engine = engine
        configuration = engine.configuration
    }
}

/// The live JACK client: opens it, registers the ports, installs the callbacks, and owns the
/// engine the process callback renders with.
///
/// Create, activate, poll and close it on the main thread. The process thread only sees the
/// `ProcessContext`; the buffer-size callback (JACK's notification thread) builds and swaps
/// engines under `engine`'s mutex.
///
/// - Realtime: never (every method allocates or talks to the server).
public final class JACKClient: @unchecked Sendable {
    /// What to open.
    public struct Options: Sendable {
        /// Client name asked for (JACK may append a suffix if it is taken).
        public var name = "voicerack"
        /// Server name; nil means `$JACK_DEFAULT_SERVER` or `default`.
        public var server: String?

        public init(name: String = "voicerack", server: String? = nil) {
            self.name = name
            self.server = server
        }

        /// The server name as JACK resolves it, for messages.
        public var serverDisplayName: String {
            server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default"
        }
    }

    /// The client name the server gave us.
    public let clientName: String
    /// The server's sample rate (Hz).
    public let sampleRate: Int
    /// The engine configuration the client was opened with (`liveConfiguration` has live changes).
    public let configuration: EngineConfiguration
    let options: Options
    let client: OpaquePointer
    let context: UnsafeMutablePointer<ProcessContext>
    /// The engine whose state is in `context.engineSlot`. Main and notification thread only;
    /// the mutex serialises a swap against `status()`.
    let engine: Mutex<OwnedEngine>
    /// The route set last installed in `context.routeSlot` (main thread only; see
    /// JACKClient+Recording.swift). Freed by whoever replaces it, or by deinit.
    var routes: UnsafeMutablePointer<TapRoutes>
    /// Why the last buffer-size change could not be followed (nil when fine).
    let bufferSizeProblem = Mutex<String?>(nil)
    private var active = false
    private var closed = false

    /// Opens the client on `options.server` (never starting a server), registers the ports and
    /// builds the engine for the server's sample rate and buffer size, with a stereo far end.
    public init(options: Options, configuration: EngineConfiguration) throws(JACKError) {
        self.options = options
        self.configuration = configuration
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = options.name.withCString { name in
            if let server = options.server {
                return server.withCString { voicerack_client_open(name, JackNoStartServer, &status, $0) }
            }
            return voicerack_client_open(name, JackNoStartServer, &status, nil)
        }
        guard let opened else {
            throw Self.openError(status, options: options)
        }
        client = opened
        clientName = String(cString: jack_get_client_name(opened))
        sampleRate = Int(jack_get_sample_rate(opened))
        let blockSize = Int(jack_get_buffer_size(opened))
        let built: VoiceEngine
        let ports: PortSet
        do {
            built = try Self.makeEngine(configuration, sampleRate: sampleRate, blockSize: blockSize)
            ports = try Self.registerPorts(opened, server: options.serverDisplayName)
        } catch {
            jack_client_close(opened)
            throw error
        }
        engine = Mutex(OwnedEngine(built))
        routes = .allocate(capacity: 1)
        routes.initialize(to: TapRoutes([]))
        context = .allocate(capacity: 1)
        context.initialize(
            to: ProcessContext(
                ports: ports, engine: built.state, latency: built.latency, routes: routes, sampleRate: sampleRate,
                monitorIsProcessed: configuration.monitor && configuration.monitorSource == .processed))
        installCallbacks()
        setPrettyNames(ports)
    }

    deinit {
        close()
        context.deinitialize(count: 1)
        context.deallocate()
        routes.deinitialize(count: 1)
        routes.deallocate()
    }

    /// Starts processing. Callbacks may run from here on.
    public func activate() throws(JACKError) {
        guard jack_activate(client) == 0 else {
            throw JACKError("cannot activate client '\(clientName)' on JACK server '\(options.serverDisplayName)'")
        }
        active = true
    }

    /// Stops processing and leaves the server. Idempotent. After a server shutdown only the
    /// client's local resources are released.
    public func close() {
        guard !closed else { return }
        closed = true
        if active, !serverHasShutDown { jack_deactivate(client) }
        active = false
        jack_client_close(client)
    }

    /// True once the server shut down or threw the client out (see `shutdownReason`).
    public var serverHasShutDown: Bool { context.pointee.serverShutDown.load(ordering: .acquiring) }

    /// A new sample rate JACK switched to after the engine was built, or nil while it matches.
    /// voicerack refuses to go on then: the engine, its delay estimate and open recordings are all
    /// at the old rate.
    public var changedSampleRate: Int? {
        let announced = context.pointee.announcedSampleRate.load(ordering: .relaxed)
        return announced > 0 && announced != sampleRate ? announced : nil
    }

    /// The reason JACK gave for the shutdown, if any.
    public var shutdownReason: String? {
        guard serverHasShutDown else { return nil }
        let reason = String(cString: context.pointee.shutdownReason)
        return reason.isEmpty ? nil : reason
    }

    /// Asks JACK to recompute latencies if the engine's latency changed since the last call.
    /// Main thread only (not from a notification callback, where calling the server can deadlock).
    public func updateLatenciesIfNeeded() {
        guard context.pointee.latencyChanged.exchange(false, ordering: .acquiring) else { return }
        jack_recompute_total_latencies(client)
    }

    /// Builds an engine, turning the engine's refusal into a message about the server's settings.
    static func makeEngine(
        _ configuration: EngineConfiguration, sampleRate: Int, blockSize: Int
    ) throws(JACKError) -> VoiceEngine {
        do {
            return try VoiceEngine(
                configuration: configuration, sampleRate: sampleRate, blockSize: blockSize,
                referenceChannels: 2)
        } catch {
            throw JACKError("the JACK server's settings do not suit the engine: \(error.description)")
        }
    }

    /// The message for a failed jack_client_open.
    static func openError(_ status: jack_status_t, options: Options) -> JACKError {
        let server = options.serverDisplayName
        if status.rawValue & JackServerFailed.rawValue != 0 || status.rawValue & JackServerError.rawValue != 0 {
            return JACKError(
                "cannot connect to JACK server '\(server)': it is not running (start it, e.g. `jackd -n \(server) -d alsa` or with qjackctl, or pick another with --server)")
        }
        if status.rawValue & JackNameNotUnique.rawValue != 0 {
            return JACKError("JACK server '\(server)' refused client name '\(options.name)': it is taken")
        }
        if status.rawValue & JackVersionError.rawValue != 0 {
            return JACKError("JACK server '\(server)' speaks another protocol version than this libjack")
        }
        return JACKError(
            "cannot open a client named '\(options.name)' on JACK server '\(server)' (jack_status_t 0x\(String(status.rawValue, radix: 16)))")
    }

    /// Registers the eight ports of `PortLayout`.
    static func registerPorts(_ client: OpaquePointer, server: String) throws(JACKError) -> PortSet {
        func register(_ name: String, _ flags: JackPortFlags) throws(JACKError) -> OpaquePointer {
            guard let port = jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue), 0) else {
                throw JACKError("cannot register port '\(name)' on JACK server '\(server)'")
            }
            return port
        }
        let i = PortLayout.inputs, o = PortLayout.outputs
        return PortSet(
            mic: try register(i[0], JackPortIsInput), farLeft: try register(i[1], JackPortIsInput),
            farRight: try register(i[2], JackPortIsInput), voice: try register(o[0], JackPortIsOutput),
            speakerLeft: try register(o[1], JackPortIsOutput), speakerRight: try register(o[2], JackPortIsOutput),
            monitorLeft: try register(o[3], JackPortIsOutput), monitorRight: try register(o[4], JackPortIsOutput))
    }

    /// Installs the process, xrun, shutdown, latency and buffer-size callbacks (before activation).
    private func installCallbacks() {
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(client, processCycle, arg)
        jack_set_xrun_callback(client, xrunOccurred, arg)
        jack_on_info_shutdown(client, serverShutDown, arg)
        jack_set_latency_callback(client, latencyChanged, arg)
        jack_set_sample_rate_callback(client, sampleRateChanged, arg)
        // The buffer-size callback needs the engine's owner; it runs on the notification thread,
        // never the process thread, so an unretained reference is fine there (self outlives the
        // client: deinit closes it first).
        jack_set_buffer_size_callback(client, bufferSizeChanged, Unmanaged.passUnretained(self).toOpaque())
    }

    /// JACK_METADATA_PRETTY_NAME's value; the C global is a mutable `const char *`, which Swift 6
    /// refuses to read without isolation.
    static let prettyNameKey = "http://jackaudio.org/metadata/pretty-name"

    /// Sets JACK metadata pretty-names; servers without metadata support just ignore them.
    private func setPrettyNames(_ ports: PortSet) {
        let all = [
            ports.mic, ports.farLeft, ports.farRight, ports.voice, ports.speakerLeft, ports.speakerRight,
            ports.monitorLeft, ports.monitorRight,
        ]
        for (port, name) in zip(all, PortLayout.inputs + PortLayout.outputs) {
            guard let pretty = PortLayout.prettyNames[name] else { continue }
            _ = jack_set_property(client, jack_port_uuid(port), Self.prettyNameKey, pretty, nil)
        }
    }
}
