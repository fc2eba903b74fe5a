import CJack
import CJackShim
import Foundation
import VoiceCycle

/// The JACK driver: opens a client, registers the eight ports, installs the callbacks and renders
/// a session's cycle from JACK's process thread.
///
/// It knows ports, callbacks, latency, connections and metadata, and nothing of presets,
/// recordings or backing tracks: those belong to the session behind `DriverClient`.
///
/// - Realtime: never (every method allocates or talks to the server). Main thread; JACK's
///   callbacks see only the `DriverContext`, and the buffer-size callback reaches `client`.
public final class JACKDriver: AudioDriver, @unchecked Sendable {
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

        /// The server name as JACK resolves it, for messages. Under PipeWire's libjack
        /// (`pw-jack`) without a name, the PipeWire daemon it joins: `$PIPEWIRE_REMOTE`, else
        /// PipeWire's default, `pipewire-0`.
        public var serverDisplayName: String {
            let environment = ProcessInfo.processInfo.environment
            if let name = server ?? environment["JACK_DEFAULT_SERVER"] { return name }
            guard JACKLibrary.isPipeWire else { return "default" }
            return environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        }
    }

    /// The client name the server gave us.
    public let clientName: String
    /// The server's sample rate (Hz).
    public let sampleRate: Int
    let options: Options
    let jackClient: OpaquePointer
    let context: UnsafeMutablePointer<DriverContext>
    /// The session being driven (set by `start`); the buffer-size callback forwards to it.
    private(set) var client: (any DriverClient)?
    private var active = false
    private var closed = false

    /// Opens the client on `options.server` (never starting a server), registers the ports and
    /// labels them (JACK metadata).
    public init(options: Options) throws(JACKError) {
        self.options = options
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = options.name.withCString { name in
            if let server = options.server {
                return server.withCString { voicerack_client_open(name, JackNoStartServer, &status, $0) }
            }
            return voicerack_client_open(name, JackNoStartServer, &status, nil)
        }
        guard let opened else { throw JACKError.cannotOpen(status, options: options) }
        jackClient = opened
        clientName = String(cString: jack_get_client_name(opened))
        sampleRate = Int(jack_get_sample_rate(opened))
        let ports: PortSet
        do {
            ports = try Self.registerPorts(opened, server: options.serverDisplayName)
        } catch {
            jack_client_close(opened)
            throw error
        }
        context = .allocate(capacity: 1)
        context.initialize(to: DriverContext(ports: ports, client: opened, sampleRate: sampleRate))
        labelPorts()
    }

    deinit {
        close()
        context.deinitialize(count: 1)
        context.deallocate()
    }

    /// Frames per period now.
    public var blockSize: Int { Int(jack_get_buffer_size(jackClient)) }

    /// True until `close()`.
    public var isOpen: Bool { !closed }

    /// Installs the callbacks with `client`'s cycle and activates: the process thread renders from
    /// here on.
    public func start(_ client: any DriverClient) throws(DriverError) {
        self.client = client
        context.pointee.cycle = client.cycle
        installCallbacks()
        guard jack_activate(jackClient) == 0 else {
            throw DriverError("cannot activate client '\(clientName)' on JACK server '\(options.serverDisplayName)'")
        }
        active = true
    }

    /// Deactivates (the process thread stops rendering) within `timeout` seconds; returns false
    /// when the server did not answer in time (a stopped or hung server), and the client is then
    /// left to the operating system at exit. Idempotent.
    @discardableResult
    public func stop(timeout: Double) -> Bool {
        guard active else { return true }
        active = false
        if serverHasShutDown { return true }
        return Self.bounded(timeout) { [self] in _ = jack_deactivate(jackClient) }
    }

    /// Deactivates, waiting at most 5 s for the server (see `stop(timeout:)`).
    public func stop() { stop(timeout: 5) }

    /// Removes the metadata this client set, then leaves the server, each within `timeout`
    /// seconds. Idempotent.
    ///
    /// The labels go even after a server shutdown: jackd2 keeps metadata in a database beside
    /// the servers, which a dead server cannot clean, and a restarted server reuses port ids, so
    /// other programs' ports would show voicerack's names.
    @discardableResult
    public func close(timeout: Double = 5) -> Bool {
        guard !closed else { return true }
        var answered = stop(timeout: timeout)
        closed = true
        if answered { answered = Self.bounded(timeout) { [self] in unlabelPorts() } }
        guard answered else { return false }
        return Self.bounded(timeout) { [self] in _ = jack_client_close(jackClient) }
    }

    /// Runs `work` on a thread of its own and waits for it at most `timeout` seconds; returns
    /// whether it finished. A call into a stopped server never returns; the thread is then left
    /// behind rather than hanging the caller (which still has files to finalise).
    static func bounded(_ timeout: Double, _ work: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.name = "voicerack jack call"
        thread.start()
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Installs the process, xrun, shutdown, latency, sample-rate, port-registration, buffer-size and
    /// freewheel callbacks (before activation).
    private func installCallbacks() {
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(jackClient, processCycle, arg)
        jack_set_xrun_callback(jackClient, xrunOccurred, arg)
        // Both: jackd calls the info callback, PipeWire's JACK only the plain one.
        jack_on_info_shutdown(jackClient, serverShutDownWithInfo, arg)
        jack_on_shutdown(jackClient, serverShutDown, arg)
        jack_set_latency_callback(jackClient, latencyChanged, arg)
        jack_set_sample_rate_callback(jackClient, sampleRateChanged, arg)
        jack_set_port_registration_callback(jackClient, portRegistrationChanged, arg)
        // The buffer-size callback needs the client; it runs on the notification thread, never
        // the process thread, so an unretained reference is fine there (self outlives the
        // client: deinit closes it first).
        jack_set_buffer_size_callback(jackClient, bufferSizeChanged, Unmanaged.passUnretained(self).toOpaque())
        // The same for freewheel: the client hears of it (notification thread) before the
        // process thread does.
        jack_set_freewheel_callback(jackClient, freewheelChanged, Unmanaged.passUnretained(self).toOpaque())
        // Only a cycle that follows the transport takes part in its start (a slow-sync client).
        if context.pointee.cycle?.pointee.followsTransport == true {
            jack_set_sync_callback(jackClient, transportSync, arg)
        }
    }
}
