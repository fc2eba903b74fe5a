import FlyingFox
import Foundation
import Synchronization

/// One open page's WebSocket: the figures about 25 times a second, the setup when asked, and
/// the page's requests, each answered with a reply.
///
/// Refuses without harm: a message larger than `maximumMessage` bytes (closed with 1009 before
/// the rest is gathered; a single frame that large from its header, before its payload is read),
/// an unmasked frame or one with reserved bits (1002), binary data (1003), text that is not
/// UTF-8 (1007); malformed JSON or
/// an unknown operation gets an error reply and the socket stays open. Requests run one at a
/// time; the figures keep flowing meanwhile. After requests the setup is sent again with the
/// next figures, once however many requests came between: a flood of requests costs the
/// session one setup per beat, not one per request (and the session's budget refuses the
/// requests beyond `ControlHub.commandsPerSecond`). Frames waiting for a slow page are capped:
/// the oldest figures are dropped, never the session's memory.
///
/// - Realtime: never; the server's tasks.
struct PanelSocket: WSHandler {
    let backend: any PanelBackend
    /// Time between two figure messages.
    let interval: Duration
    /// The largest message accepted, bytes.
    let maximumMessage: Int
    /// Called when the socket closes (to count open sockets).
    let closed: @Sendable () -> Void

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let (frames, out) = AsyncStream<WSFrame>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let task = Task { [self] in
            let watch = backend.watch()
            out.yield(Self.text(PanelMessage.setup(await backend.setup())))
            let setupDue = SetupDue()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sendFigures(to: out, setupDue: setupDue) }
                group.addTask { await readRequests(from: client, replyingTo: out, setupDue: setupDue) }
                await group.next()
                group.cancelAll()
            }
            out.finish()
            withExtendedLifetime(watch) { closed() }
        }
        out.onTermination = { _ in task.cancel() }
        return frames
    }

    /// On a fixed beat (deadlines, not sleeps after each send), so a late wake-up does not lower
    /// the rate; the setup too when requests came since the last beat.
    private func sendFigures(to out: AsyncStream<WSFrame>.Continuation, setupDue: SetupDue) async {
        let clock = ContinuousClock()
        var next = clock.now
        while !Task.isCancelled {
            out.yield(Self.text(PanelMessage.meters(backend.meters())))
            if setupDue.take() { out.yield(Self.text(PanelMessage.setup(await backend.setup()))) }
            next += interval
            if next < clock.now { next = clock.now }
            try? await Task.sleep(until: next, clock: clock)
        }
    }

    /// Gathers messages from frames (bounded), answers pings, runs requests; returns when the
    /// page closes or breaks a rule (after sending the close frame).
    private func readRequests(
        from client: AsyncThrowingStream<WSFrame, any Error>, replyingTo out: AsyncStream<WSFrame>.Continuation,
        setupDue: SetupDue
    ) async {
        var message = Data()
        var gathering = false
        do {
            for try await frame in client {
                switch frame.opcode {
                case .ping:
                    out.yield(WSFrame(fin: true, opcode: .pong, mask: nil, payload: frame.payload))
                    continue
                case .pong:
                    continue
                case .close:
                    out.yield(.close(code: WSCloseCode(1000)))
                    return
                case .binary:
                    out.yield(.close(code: WSCloseCode(1003, reason: "text messages only")))
                    return
                case .text where !gathering, .continuation where gathering:
                    break
                default:
                    out.yield(.close(code: WSCloseCode(1002, reason: "unexpected frame")))
                    return
                }
                guard message.count + frame.payload.count <= maximumMessage else {
                    out.yield(
                        .close(code: WSCloseCode(1009, reason: "messages are limited to \(maximumMessage) bytes")))
                    return
                }
                message.append(frame.payload)
                gathering = !frame.fin
                if gathering { continue }
                guard let text = String(data: message, encoding: .utf8) else {
                    out.yield(.close(code: WSCloseCode(1007, reason: "not UTF-8")))
                    return
                }
                message = Data()
                out.yield(Self.text(await answer(text)))
                // A request may change values, presets or taps: the page redraws from the setup.
                setupDue.mark()
            }
        } catch WSFrameRefusal.tooLarge(let limit) {
            // Refused from the frame's header, before its payload was read.
            out.yield(.close(code: WSCloseCode(1009, reason: "messages are limited to \(limit) bytes")))
        } catch WSFrameRefusal.protocolError(let reason) {
            out.yield(.close(code: WSCloseCode(1002, reason: reason)))
        } catch {
            // The connection broke or sent a frame the decoder refused: nothing more to read.
        }
    }

    private func answer(_ text: String) async -> PanelMessage {
        do {
            let (request, id) = try PanelRequest.decode(text)
            return .reply(id: id, backend: await backend.perform(request))
        } catch {
            return .reply(id: 0, backend: PanelReply(ok: false, lines: ["refused: \(error.description)"]))
        }
    }

    static func text(_ message: PanelMessage) -> WSFrame {
        let data = (try? JSONEncoder().encode(message)) ?? Data("{}".utf8)
        return WSFrame(fin: true, opcode: .text, mask: nil, payload: data)
    }
}

/// Whether requests came since the setup was last sent; the reader marks, the beat takes.
///
/// - Realtime: never; a socket's two tasks.
final class SetupDue: Sendable {
    private let due = Atomic<Bool>(false)
    func mark() { due.store(true, ordering: .relaxed) }
    /// True once after any number of marks.
    func take() -> Bool { due.exchange(false, ordering: .relaxed) }
}

/// What the server sends: `{"type":"meters","meters":{...}}`, `{"type":"setup",...}` or
/// `{"type":"reply","id":3,"reply":{"ok":true,"lines":[...]}}`.
enum PanelMessage: Encodable {
    case meters(PanelMeters)
    case setup(PanelSetup)
    case reply(id: Int, backend: PanelReply)

    private enum Keys: String, CodingKey { case type, meters, setup, id, reply }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .meters(let meters):
            try c.encode("meters", forKey: .type)
            try c.encode(meters, forKey: .meters)
        case .setup(let setup):
            try c.encode("setup", forKey: .type)
            try c.encode(setup, forKey: .setup)
        case .reply(let id, let reply):
            try c.encode("reply", forKey: .type)
            try c.encode(id, forKey: .id)
            try c.encode(reply, forKey: .reply)
        }
    }
}
