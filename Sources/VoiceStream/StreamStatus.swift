import Foundation

/// Where a stream stands.
///
/// - Realtime: never (a value read by the main thread).
public enum StreamState: Sendable, Equatable {
    /// First connection under way.
    case connecting
    /// Connected; audio goes out.
    case live
    /// The connection dropped (or an attempt failed); the next attempt is `retryIn` seconds away.
    case reconnecting(attempt: Int, retryIn: Double, reason: String)
    /// Over for good: `reason` says why (`stopped` when asked to).
    case stopped(reason: String)

    /// One word for status lines: connecting, live, reconnecting, stopped.
    public var word: String {
        switch self {
        case .connecting: "connecting"
        case .live: "live"
        case .reconnecting: "reconnecting"
        case .stopped: "stopped"
        }
    }
}

/// What a stream did so far: its state and the counters the status line and summary show.
///
/// - Realtime: never.
public struct StreamStatus: Sendable, Equatable {
    public var state: StreamState = .connecting
    /// Audio seconds that went on air (encoded and handed to the server while connected).
    public var secondsOnAir: Double = 0
    /// Audio seconds that never went on air: arrived while not connected, dropped because the
    /// network queue was too long, or lost by the producer because the sender fell behind.
    public var secondsLost: Double = 0
    /// Bytes the socket took (handed to libshout minus what still waits in its queue).
    public var bytesSent: Int = 0
    /// Bytes sent per second over the last few seconds, in kb/s.
    public var bitrateKbps: Double = 0
    /// Connections made after the first.
    public var reconnects: Int = 0
    /// The fatal error, when the stream stopped on one.
    public var error: StreamError?

    /// The status-line text, e.g. `stream live 64 kb/s, on air 0:01:23, lost 0.0 s`.
    /// Never contains credentials.
    public var text: String {
        var s = "stream \(state.word)"
        switch state {
        case .live: s += String(format: " %.0f kb/s", bitrateKbps)
        case .reconnecting(let attempt, let retryIn, let reason):
            s += " (attempt \(attempt) in " + String(format: "%.0f", retryIn) + " s: \(reason))"
        case .stopped(let reason): s += ": \(reason)"
        case .connecting: break
        }
        s += ", on air \(Self.clock(secondsOnAir)), lost " + String(format: "%.1f s", secondsLost)
        if reconnects > 0 { s += ", \(reconnects) reconnect\(reconnects == 1 ? "" : "s")" }
        return s
    }

    /// `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let t = Int(seconds)
        return String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
    }
}
