import CShout
import Foundation

/// One source connection to Icecast through libshout, in non-blocking mode: opening, sending and
/// flushing return at once; what the socket cannot take yet waits in libshout's queue
/// (`queuedBytes`).
///
/// - Realtime: never; the sender thread (or `LiveStream.check`) owns it. Name resolution in
///   `open` may block that thread, never the producer.
final class ShoutConnection {
    private let shout: OpaquePointer
    let target: StreamTarget

    /// What a connection step came to.
    enum Step: Equatable {
        case connected
        case pending
        case failed(StreamError)
    }

    /// libshout's global set-up, once per process. libshout writes to its socket without
    /// MSG_NOSIGNAL, so a server that died would kill the whole process with SIGPIPE: the
    /// signal is ignored process-wide (the write then fails with EPIPE, which is handled).
    private static let initialised: Void = {
        signal(SIGPIPE, SIG_IGN)
        shout_init()
    }()

    init(_ target: StreamTarget, sampleRate: Int) throws(StreamError) {
        _ = Self.initialised
        guard let s = shout_new() else { throw .unreachable(server: target.server, detail: "libshout could not start") }
        shout = s
        self.target = target
        let format = target.format == .opus ? SHOUT_FORMAT_OGG : SHOUT_FORMAT_MP3
        var rc = shout_set_host(s, target.url.host)
        rc |= shout_set_port(s, UInt16(target.url.port))
        rc |= shout_set_user(s, target.url.user)
        rc |= shout_set_password(s, target.password.value)
        rc |= shout_set_mount(s, target.url.mount)
        rc |= shout_set_protocol(s, UInt32(SHOUT_PROTOCOL_HTTP))
        rc |= shout_set_content_format(s, UInt32(format), UInt32(SHOUT_USAGE_AUDIO), nil)
        rc |= shout_set_nonblocking(s, UInt32(SHOUT_BLOCKING_NONE))
        rc |= shout_set_agent(s, "voicerack")
        rc |= shout_set_audio_info(s, SHOUT_AI_BITRATE, String(target.bitrateKbps))
        rc |= shout_set_audio_info(s, SHOUT_AI_SAMPLERATE, String(sampleRate))
        rc |= shout_set_audio_info(s, SHOUT_AI_CHANNELS, String(target.channels))
        for (key, value) in [
            (SHOUT_META_NAME, target.name), (SHOUT_META_DESCRIPTION, target.streamDescription),
            (SHOUT_META_GENRE, target.genre),
        ] {
            if let value { rc |= shout_set_meta(s, key, value) }
        }
        guard rc == SHOUTERR_SUCCESS else {
            // libshout's own message never contains the password.
            let why = String(cString: shout_get_error(s))
            shout_free(s)
            throw .badSetting(key: "url", message: "libshout refused the settings: \(why)")
        }
    }

    deinit {
        shout_close(shout)
        shout_free(shout)
    }

    /// Starts connecting; `poll()` until it is `.connected` or `.failed`.
    func open() -> Step { classify(shout_open(shout)) }

    /// Advances a connection under way.
    func poll() -> Step { classify(shout_get_connected(shout)) }

    /// Queues `bytes` and sends what the socket takes; `.failed` when the connection broke.
    func send(_ bytes: [UInt8]) -> Step {
        let rc = bytes.withUnsafeBufferPointer { shout_send(shout, $0.baseAddress, $0.count) }
        return classify(rc)
    }

    /// Sends what is queued (no new data).
    func flush() -> Step { classify(shout_send(shout, nil, 0)) }

    /// Bytes queued in libshout that the socket has not taken yet.
    var queuedBytes: Int { max(0, shout_queuelen(shout)) }

    /// Closes the connection (the server sees the source leave).
    func close() { shout_close(shout) }

    private func classify(_ rc: Int32) -> Step {
        switch rc {
        case SHOUTERR_SUCCESS, SHOUTERR_CONNECTED: return .connected
        case SHOUTERR_BUSY, SHOUTERR_RETRY: return .pending
        case SHOUTERR_NOLOGIN: return .failed(.refused(server: target.server))
        case SHOUTERR_UNSUPPORTED:
            return .failed(
                .unsupported(server: target.server, detail: "libshout does not support \(target.format.rawValue)"))
        case SHOUTERR_NOCONNECT:
            return .failed(.unreachable(server: target.server, detail: "connection refused or timed out"))
        default:
            return .failed(
                .unreachable(server: target.server, detail: String(cString: shout_get_error(shout)).lowercased()))
        }
    }
}
