import Foundation
import Synchronization
import VoiceControl

/// The OSC control surface (`run --osc PORT`): a UDP socket and one thread that decodes each
/// message, submits its command to the session's `ControlHub` and pushes meters to the
/// addresses that registered for them.
///
/// The thread only enqueues: every command runs on the main thread, which answers through the
/// reply callback (a datagram back to the sender). Every message gets an answer: a reply, or
/// `/voicerack/error` naming what is wrong (a packet that is not OSC, an unknown address, wrong
/// arguments, a value out of range). With a secret (`OSCSecret`), a message must carry it as
/// its first argument, else it is refused before anything else is looked at; beyond loopback
/// the surface does not start without one.
///
/// - Realtime: never. `start`/`stop` on the main thread; the rest on the surface's own thread.
public final class OSCSurface: ControlSurface, @unchecked Sendable {
    private let host: String
    private let port: Int
    /// Demanded as every message's first argument when set.
    private let secret: OSCSecret?
    /// `--osc-reply-port`: replies go to the sender's host at this port, not to the port they
    /// came from (oscsend's is gone once it has sent, so `oscdump PORT` can hear them).
    private let replyPort: Int?
    /// The declared parameters' keys, each with an address of its own.
    private let parameters: Set<String>
    /// `/voicerack/help`: the addresses, then one line per declared parameter.
    private let help: [String]
    private var socket: OSCSocket?
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Most addresses meters are pushed to at once.
    public static let maximumListeners = 16

    /// Listens on `host:port` (UDP) once started; with `secret`, answers only messages that
    /// carry it as their first argument. Beyond loopback a secret is required. With
    /// `replyPort`, replies go to that port on the sender's host. Each of `parameters` (the
    /// declared parameters, as `show` lists them) is answered at its own address.
    public init(
        host: String, port: Int, secret: OSCSecret? = nil, replyPort: Int? = nil, parameters: [LiveKey] = []
    ) {
        self.host = host
        self.port = port
        self.secret = secret
        self.replyPort = replyPort
        self.parameters = Set(parameters.map(\.key))
        help =
            OSCAddressSpace.help
            + parameters.map { "\(OSCAddressSpace.address(of: $0.key)) VALUE  \($0.allowed)" }
    }

    /// The address listened on (`127.0.0.1:9000`), once started.
    public var address: String? { socket?.boundAddress.description }

    public func start(_ hub: ControlHub) throws(ControlSurfaceError) -> [String] {
        let socket: OSCSocket
        do {
            socket = try OSCSocket(host: host, port: port)
        } catch {
            throw ControlSurfaceError(code: 69, "--osc: \(error.message)")
        }
        guard socket.boundAddress.isLoopback || secret != nil else {
            throw ControlSurfaceError(
                code: 64,
                "--osc-host \(host): OSC would listen on \(socket.boundAddress), beyond this machine, where anyone who reaches it could control voicerack; give --osc-secret-file FILE too (every message must then carry the secret)"
            )
        }
        self.socket = socket
        let thread = Thread { [self] in
            serve(socket, hub)
            finished.signal()
        }
        thread.name = "voicerack-osc"
        thread.start()
        var lines = ["OSC on udp \(socket.boundAddress) (/voicerack/help lists the addresses)"]
        if let replyPort { lines.append("OSC replies go to port \(replyPort) on the sender's host (--osc-reply-port)") }
        if secret != nil {
            lines.append("OSC needs the secret from --osc-secret-file as each message's first argument")
        }
        if !socket.boundAddress.isLoopback {
            lines.append(
                "warning: OSC listens on \(socket.boundAddress), beyond this machine: anyone who can reach it and knows the secret can control voicerack, and the secret travels unencrypted; use it on a network you trust"
            )
        }
        return lines
    }

    public func stop() {
        guard let socket, !stopped.exchange(true, ordering: .relaxed) else { return }
        socket.wake()
        finished.wait()
    }

    /// A peer registered for meters: how often, and when the next push is due (seconds on
    /// the monotonic clock).
    private struct Listener {
        var period: Double
        var due: Double
    }

    /// The thread's loop: receive until the next push is due, answer, push.
    private func serve(_ socket: OSCSocket, _ hub: ControlHub) {
        var listeners: [OSCPeer: Listener] = [:]
        var watch: MeterWatch?
        while !stopped.load(ordering: .relaxed) {
            let now = ProcessInfo.processInfo.systemUptime
            let nextDue = listeners.values.map(\.due).min() ?? now + 1
            if let (bytes, peer) = socket.receive(timeout: max(0, nextDue - now)) {
                handle(bytes, from: peer, socket, hub, &listeners)
                watch = listeners.isEmpty ? nil : (watch ?? hub.watchMeters())
            }
            push(socket, hub, &listeners)
        }
    }

    private func handle(
        _ bytes: [UInt8], from sender: OSCPeer, _ socket: OSCSocket, _ hub: ControlHub,
        _ listeners: inout [OSCPeer: Listener]
    ) {
        // Where this sender hears back: its own port, or its host at --osc-reply-port.
        let peer = replyPort.map { sender.withPort($0) } ?? sender
        var message: OSCMessage
        do {
            message = try OSCMessage(decoding: bytes)
        } catch {
            return send(
                [OSCReplies.error("", "\(bytes.count)-byte packet is \(error.description)")], to: peer, socket,
                answering: "")
        }
        let address = message.path
        if let secret {
            guard let admitted = secret.admit(message) else {
                return send([OSCReplies.error(address, OSCSecret.refusal)], to: peer, socket, answering: address)
            }
            message = admitted
        }
        switch OSCAddressSpace.route(message, parameters: parameters) {
        case .failure(let why):
            send([OSCReplies.error(address, why)], to: peer, socket, answering: address)
        case .help:
            send([OSCReplies.lines(address, help)], to: peer, socket, answering: address)
        case .registerMeters(let rate, let port):
            // The pushes go to the port named (on the sender's host), else where replies go; the
            // answer goes to --osc-reply-port when set, else with the pushes.
            let target = port.map { sender.withPort($0) } ?? peer
            let answer = replyPort == nil ? target : peer
            guard listeners[target] != nil || listeners.count < Self.maximumListeners else {
                return send(
                    [
                        OSCReplies.error(
                            address, "\(Self.maximumListeners) addresses already get meters; unregister one")
                    ],
                    to: answer, socket, answering: address)
            }
            let period = 1 / rate
            listeners[target] = Listener(period: period, due: ProcessInfo.processInfo.systemUptime)
            hub.note("OSC: \(target) gets meters \(Self.rateText(rate)) times a second")
            send(
                [OSCReplies.lines(address, ["meters to \(target) at \(Self.rateText(rate)) Hz"])], to: answer, socket,
                answering: address)
        case .unregisterMeters(let port):
            let target = port.map { sender.withPort($0) } ?? peer
            let answer = replyPort == nil ? target : peer
            guard listeners.removeValue(forKey: target) != nil else {
                return send(
                    [OSCReplies.error(address, "\(target) was not registered for meters")], to: answer, socket,
                    answering: address)
            }
            hub.note("OSC: \(target) no longer gets meters")
            send([OSCReplies.lines(address, ["no more meters to \(target)"])], to: answer, socket, answering: address)
        case .command(let command):
            hub.submit(command, from: "OSC \(sender)", surface: "OSC") { [weak self] reply in
                guard let self, !self.stopped.load(ordering: .relaxed) else { return }
                self.send(OSCReplies.messages(answering: address, reply), to: peer, socket, answering: address)
            }
        }
    }

    /// Sends the meters to every listener whose push is due.
    private func push(_ socket: OSCSocket, _ hub: ControlHub, _ listeners: inout [OSCPeer: Listener]) {
        guard !listeners.isEmpty else { return }
        let now = ProcessInfo.processInfo.systemUptime
        let due = listeners.filter { $0.value.due <= now }
        guard !due.isEmpty else { return }
        let snapshot = hub.snapshot()
        let messages =
            [OSCReplies.meters(snapshot), OSCReplies.state(snapshot)]
            + [OSCReplies.loudness(snapshot), OSCReplies.units(snapshot)]
            .compactMap { $0 }
        for (peer, listener) in due {
            send(messages, to: peer, socket, answering: nil)
            // Keep the cadence; after a stall, start again from now rather than burst.
            let next = listener.due + listener.period
            listeners[peer]?.due = next > now ? next : now + listener.period
        }
    }

    /// Sends `messages`; one that does not fit a datagram goes as an `/error` answering
    /// `address` instead (`OSCReplies.datagram`); a push (no `address`) that does not fit is
    /// left out.
    private func send(_ messages: [OSCMessage], to peer: OSCPeer, _ socket: OSCSocket, answering address: String?) {
        for message in messages {
            guard let bytes = OSCReplies.datagram(message, answering: address) else { continue }
            socket.send(bytes, to: peer)
        }
    }

    private static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(format: "%.1f", rate)
    }
}
