import CJack
import CJackShim
import Foundation

/// The peer's JACK client: opens it (never starting a server), registers `mic`, `far_L`, `far_R`
/// (outputs) and one input per listened target port (`voice` for voice_out, else the target
/// port's name), connects them to the target and plays the context's audio.
///
/// - Realtime: never; create, run and close it on the main thread. The process thread sees only
///   the `PlaybackContext`.
final class PeerClient {
    let client: OpaquePointer
    let name: String
    let sampleRate: Int
    let context: UnsafeMutablePointer<PlaybackContext>
    /// The target ports recorded, in channel order.
    let listen: [String]
    private var active = false

    /// Opens the client and preloads `mic` and `far` (1 or 2 channels) plus `tail` frames of silence.
    init(options: PeerOptions, mic: [Float], far: [[Float]], tail: Int, room: [Float]? = nil) throws(PeerFailure) {
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = options.name.withCString { name in
            guard let server = options.server else {
                return voicerack_client_open(name, JackNoStartServer, &status, nil)
            }
            return server.withCString { voicerack_client_open(name, JackNoStartServer, &status, $0) }
        }
        guard let opened else {
            throw PeerFailure(
                69,
                "cannot open a JACK client on server '\(options.server ?? "default")' (status 0x\(String(status.rawValue, radix: 16)))"
            )
        }
        client = opened
        name = String(cString: jack_get_client_name(opened))
        sampleRate = Int(jack_get_sample_rate(opened))
        func register(_ port: String, _ flags: JackPortFlags) -> OpaquePointer? {
            jack_port_register(opened, port, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue), 0)
        }
        listen = options.listen
        let inputs = listen.compactMap { register(Self.inputName(for: $0), JackPortIsInput) }
        guard let micPort = register("mic", JackPortIsOutput), let left = register("far_L", JackPortIsOutput),
            let right = register("far_R", JackPortIsOutput), inputs.count == listen.count
        else {
            jack_client_close(opened)
            throw PeerFailure(69, "cannot register the peer's ports")
        }
        let listened = UnsafeMutablePointer<OpaquePointer>.allocate(capacity: inputs.count)
        listened.initialize(from: inputs, count: inputs.count)
        let length = max(mic.count, far.map(\.count).max() ?? 0) + tail
        context = .allocate(capacity: 1)
        context.initialize(
            to: PlaybackContext(
                ports: PeerPorts(
                    mic: micPort, farLeft: left, farRight: right, listened: listened, listenedCount: inputs.count),
                mic: mic,
                farLeft: far.first ?? [], farRight: far.count > 1 ? far[1] : (far.first ?? []), length: length,
                freewheel: options.freewheel, room: room))
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(opened, peerProcess, arg)
        jack_set_xrun_callback(opened, peerXrun, arg)
        jack_on_info_shutdown(opened, peerShutdown, arg)
        jack_set_freewheel_callback(opened, peerFreewheel, arg)
    }

    /// The peer's input port that records `targetPort`: `voice` for voice_out (the historical
    /// name), else the target port's own name.
    static func inputName(for targetPort: String) -> String {
        targetPort == "voice_out" ? "voice" : targetPort.replacingOccurrences(of: ":", with: "_")
    }

    /// The full name of a listened port: TARGET's port, or any port when given with its client.
    static func sourceName(_ port: String, target: String) -> String { port.contains(":") ? port : "\(target):\(port)" }

    deinit {
        close()
        context.deinitialize(count: 1)
        context.deallocate()
    }

    /// Activates the client and connects mic → TARGET:mic_in, far_L/R → TARGET:far_in_L/R, then
    /// each listened TARGET port → its input; waits (up to `timeout` s) until JACK shows them all.
    ///
    /// The feeding connections come first, so the ones from the target back to us close the loop: JACK then orders the peer before the target in each cycle, and mic and
    /// far end reach the target in the cycle the peer wrote them.
    func activateAndConnect(target: String, timeout: Double) throws(PeerFailure) {
        guard jack_activate(client) == 0 else { throw PeerFailure(69, "cannot activate the peer") }
        active = true
        // `--room`: the far end comes from elsewhere (a call app through PipeWire); far_L/R stay
        // unconnected.
        let far = [("\(name):far_L", "\(target):far_in_L"), ("\(name):far_R", "\(target):far_in_R")]
        let pairs =
            [("\(name):mic", "\(target):mic_in")] + (context.pointee.startsOnSound ? [] : far)
            + listen.map { (Self.sourceName($0, target: target), "\(name):\(Self.inputName(for: $0))") }
        for (source, destination) in pairs {
            let result = jack_connect(client, source, destination)
            guard result == 0 || result == EEXIST else {
                throw PeerFailure(
                    69, "cannot connect \(source) -> \(destination) (error \(result)); is '\(target)' running?")
            }
        }
        let ports = context.pointee.ports
        let deadline = Date().addingTimeInterval(timeout)
        let all =
            [ports.mic] + (context.pointee.startsOnSound ? [] : [ports.farLeft, ports.farRight])
            + (0..<ports.listenedCount).map { ports.listened[$0] }
        while all.contains(where: { jack_port_connected($0) == 0 }) {
            guard Date() < deadline else {
                throw PeerFailure(70, "the connections did not show up within \(timeout) s")
            }
            usleep(10_000)
        }
    }

    /// Starts playback at the next cycle and waits until every frame has been played, the
    /// server went away (throws 69) or `timeout` seconds passed (throws 70).
    func play(timeout: Double) throws(PeerFailure) {
        let c = context
        c.pointee.started.store(true, ordering: .releasing)
        let deadline = Date().addingTimeInterval(timeout)
        if c.pointee.playsInFreewheel {
            guard jack_set_freewheel(client, 1) == 0 else { throw PeerFailure(69, "the server refused to freewheel") }
        }
        defer { if c.pointee.playsInFreewheel { endFreewheel(deadline: deadline) } }
        while c.pointee.position.load(ordering: .acquiring) < c.pointee.length {
            if c.pointee.serverShutDown.load(ordering: .acquiring) {
                throw PeerFailure(69, "the JACK server shut down during playback")
            }
            guard Date() < deadline else {
                throw PeerFailure(
                    70,
                    "playback did not finish within \(timeout) s (\(c.pointee.position.load(ordering: .relaxed)) of \(c.pointee.length) frames)"
                )
            }
            usleep(10_000)
        }
    }

    /// Stops freewheeling and waits (until `deadline`) for the server to say it stopped.
    private func endFreewheel(deadline: Date) {
        jack_set_freewheel(client, 0)
        while context.pointee.freewheeling.load(ordering: .acquiring), Date() < deadline { usleep(10_000) }
    }

    /// Deactivates and closes the client. Idempotent. After this the process thread is gone and
    /// `context.recorded` may be read.
    func close() {
        guard active else { return }
        active = false
        if !context.pointee.serverShutDown.load(ordering: .acquiring) { jack_deactivate(client) }
        jack_client_close(client)
    }

    /// What the run did, for the report line: frames, cycles, the periods seen, xruns.
    var summary: String {
        let c = context
        return
            "testpeer: played \(c.pointee.length) frames in \(c.pointee.playedCycles.load(ordering: .relaxed)) cycles of "
            + "\(c.pointee.smallestPeriod.load(ordering: .relaxed))-\(c.pointee.largestPeriod.load(ordering: .relaxed)) frames; "
            + "xruns \(c.pointee.xruns.load(ordering: .relaxed)); period changed at frame \(c.pointee.periodChangedAt.load(ordering: .relaxed))"
            + (c.pointee.playsInFreewheel
                ? "; freewheel frames \(c.pointee.freewheelFrames.load(ordering: .relaxed))" : "")
    }

    /// The recording, interleaved, one channel per listened port (valid after `close()`).
    var recording: [Float] {
        let length = context.pointee.length, recorded = context.pointee.recorded
        let channels = listen.count
        var interleaved = [Float](repeating: 0, count: length * channels)
        for k in 0..<channels {
            for i in 0..<length { interleaved[i * channels + k] = recorded[k * length + i] }
        }
        return interleaved
    }
}
