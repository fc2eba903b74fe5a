import Foundation
import Synchronization

/// Where control surfaces (OSC, the web panel) meet the live session: an inbox of commands the
/// main thread runs, and the latest `LiveSnapshot` for meters.
///
/// A surface thread calls `submit` with a reply callback and returns at once; the main thread
/// (`LiveLoop.tick`) takes the commands (`take`), runs each on the session and calls the
/// callback with the reply, on the main thread (the callback should only hand the reply to its
/// surface: send a datagram, resume a request). `snapshot()` may be read from any thread as
/// often as a surface likes; `watchMeters()` makes the main thread refresh it at least 60
/// times a second until the watch is ended. Nothing here is ever touched by the process thread.
///
/// Each surface may submit `commandsPerSecond` commands (`ControlRate`); beyond that, and
/// beyond `capacity` waiting, a command is refused at once with the reason, so a flood costs
/// the main thread nothing.
///
/// - Realtime: never. `submit`, `snapshot`, `watchMeters`, `note`: any thread; `take`,
///   `publish`, `takeNotes`: main thread.
public final class ControlHub: Sendable {
    /// A submitted command and where its reply goes.
    public struct Pending: Sendable {
        public let command: LiveCommand
        /// Who sent it, for the log (`osc 127.0.0.1:9000`).
        public let origin: String
        public let reply: @Sendable (LiveReply) -> Void
        /// The surface whose budget it came from (`OSC`, `web`).
        let surface: String
    }

    /// Commands waiting for the main thread; beyond this many, `submit` refuses at once.
    public static let capacity = 256
    /// Commands each surface may submit per second (`ControlRate`); beyond, `submit` refuses.
    public static let commandsPerSecond = 100

    /// What surface threads share with the main thread: the waiting commands and each
    /// surface's budget.
    private struct Inbox {
        var queue: [Pending] = []
        var rates: [String: ControlRate] = [:]
    }

    private let inbox = Mutex(Inbox())
    private let latest = Mutex(LiveSnapshot())
    private let meterWatchers = Atomic<Int>(0)
    private let notes = Mutex<[String]>([])
    /// Wakes the main loop early (the session sends itself a signal its wait takes).
    private let wake: @Sendable () -> Void
    /// Seconds on a monotonic clock, for the budgets.
    private let clock: @Sendable () -> Double

    /// `wake` is called after each submit so the main loop runs the command without waiting out
    /// its slice; it must be cheap and safe on any thread. `clock` (seconds, monotonic) times
    /// the surfaces' budgets.
    public init(
        wake: @escaping @Sendable () -> Void = {},
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.wake = wake
        self.clock = clock
    }

    /// Queues `command` for the main thread; `reply` is called there with the result (at once,
    /// on this thread, when the inbox is full or `surface` spent its budget).
    ///
    /// `surface` names whose budget the command spends (`OSC`, `web`; `origin` when nil): every
    /// peer of one surface shares it, so opening more sockets does not buy more. A `set` of a
    /// key still waiting from the same surface replaces that one's value (latest wins; both
    /// get the reply) instead of queueing a second change of the same key.
    public func submit(
        _ command: LiveCommand, from origin: String, surface: String? = nil,
        reply: @escaping @Sendable (LiveReply) -> Void
    ) {
        let surface = surface ?? origin
        let now = clock()
        let refusal: String? = inbox.withLock { inbox in
            guard inbox.rates[surface, default: ControlRate(perSecond: Self.commandsPerSecond)].admit(at: now) else {
                return inbox.rates[surface]?.refusal
            }
            if Self.coalesce(command, reply, from: surface, into: &inbox.queue) { return nil }
            guard inbox.queue.count < Self.capacity else {
                return "busy: \(Self.capacity) commands are waiting for the session; try again"
            }
            inbox.queue.append(Pending(command: command, origin: origin, reply: reply, surface: surface))
            return nil
        }
        if let refusal { return reply(.failure(refusal)) }
        wake()
    }

    /// Folds a `set` into a waiting `set` of the same key from `surface`, when nothing else from
    /// that surface waits after it (sets of other keys do not depend on it; a preset load
    /// would). True when folded.
    private static func coalesce(
        _ command: LiveCommand, _ reply: @escaping @Sendable (LiveReply) -> Void, from surface: String,
        into queue: inout [Pending]
    ) -> Bool {
        guard case .set(let key, _) = command else { return false }
        for index in queue.indices.reversed() where queue[index].surface == surface {
            guard case .set(let waiting, _) = queue[index].command else { return false }
            guard waiting == key else { continue }
            let earlier = queue[index]
            queue[index] = Pending(
                command: command, origin: earlier.origin,
                reply: { answer in
                    earlier.reply(answer)
                    reply(answer)
                }, surface: surface)
            return true
        }
        return false
    }

    /// The commands submitted since the last call, oldest first. - Main thread.
    public func take() -> [Pending] {
        inbox.withLock { inbox in
            defer { inbox.queue = [] }; return inbox.queue
        }
    }

    /// The latest meters and state. - Any thread.
    public func snapshot() -> LiveSnapshot { latest.withLock { $0 } }

    /// Stores a new snapshot (its `sequence` is set here). - Main thread.
    public func publish(_ snapshot: LiveSnapshot) {
        latest.withLock { old in
            var new = snapshot
            new.sequence = old.sequence + 1
            old = new
        }
    }

    /// True while some surface watches meters: the main loop then refreshes every 1/60 s.
    public var wantsMeters: Bool { meterWatchers.load(ordering: .relaxed) > 0 }

    /// Asks for fresh meters until the returned watch is ended (or dropped).
    public func watchMeters() -> MeterWatch {
        meterWatchers.add(1, ordering: .relaxed)
        wake()
        return MeterWatch(hub: self)
    }

    fileprivate func unwatch() { meterWatchers.subtract(1, ordering: .relaxed) }

    /// A line for the session's log from a surface thread (a client registered, a bad packet).
    public func note(_ line: String) {
        notes.withLock { $0.append(line) }
    }

    /// The lines noted since the last call. - Main thread.
    public func takeNotes() -> [String] {
        notes.withLock { n in
            defer { n = [] }; return n
        }
    }
}

/// A surface's wish for fresh meters (`ControlHub.watchMeters`); ends on `end()` or when freed.
///
/// - Realtime: never; any thread.
public final class MeterWatch: Sendable {
    private let hub: ControlHub
    private let ended = Atomic<Bool>(false)

    fileprivate init(hub: ControlHub) { self.hub = hub }

    public func end() {
        if !ended.exchange(true, ordering: .relaxed) { hub.unwatch() }
    }

    deinit { end() }
}

/// A control surface the session starts after its client runs and stops before it leaves.
///
/// - Realtime: never; main thread calls `start` and `stop`.
public protocol ControlSurface: AnyObject, Sendable {
    /// Starts serving `hub`; returns lines for the log (where it listens, warnings). Throws
    /// with a message naming what is wrong (a port in use).
    func start(_ hub: ControlHub) throws(ControlSurfaceError) -> [String]
    /// Stops serving. Replies to commands still in the inbox may arrive afterwards (on the
    /// main thread); a stopped surface drops them.
    func stop()
}

/// Why a surface could not start, with the sysexits code to leave with.
public struct ControlSurfaceError: Error, Sendable {
    public let code: Int32
    public let message: String
    public init(code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }
}
