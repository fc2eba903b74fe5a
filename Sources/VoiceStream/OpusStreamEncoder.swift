import COpusEnc

/// Ogg Opus through libopusenc, written into memory through its callbacks.
///
/// libopusenc takes any input rate and resamples to Opus's 48 kHz itself, so the tap's rate is
/// used as given. Pages are flushed at least every `pageMilliseconds` (the muxing delay), which
/// bounds the latency the encoder adds to the stream.
///
/// - Realtime: never; the sender thread owns it.
final class OpusStreamEncoder: StreamEncoder {
    private var encoder: OpaquePointer?
    private var comments: OpaquePointer?
    private var output: [UInt8] = []
    private let channels: Int
    /// Longest wait of audio for its Ogg page, in ms.
    static let pageMilliseconds = 100

    init(_ target: StreamTarget, sampleRate: Int) throws(StreamError) {
        channels = target.channels
        comments = ope_comments_create()
        if let name = target.name { ope_comments_add(comments, "TITLE", name) }
        if let genre = target.genre { ope_comments_add(comments, "GENRE", genre) }
        if let text = target.streamDescription { ope_comments_add(comments, "DESCRIPTION", text) }
        var callbacks = OpusEncCallbacks(
            write: { user, bytes, length in
                let me = Unmanaged<OpusStreamEncoder>.fromOpaque(user!).takeUnretainedValue()
                me.output.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                return 0
            },
            close: { _ in 0 })
        var error: Int32 = 0
        // Family 0: mono or stereo, no channel mapping table.
        encoder = ope_encoder_create_callbacks(
            &callbacks, Unmanaged.passUnretained(self).toOpaque(), comments, Int32(sampleRate), Int32(channels), 0,
            &error)
        guard let encoder, error == OPE_OK else {
            ope_comments_destroy(comments)
            throw .badSetting(
                key: "format", message: "opus encoder refused \(sampleRate) Hz, \(channels) channels (\(error))")
        }
        guard voicerack_ope_set_bitrate(encoder, Int32(target.bitrateKbps * 1000)) == OPE_OK else {
            throw .badSetting(key: "bitrate_kbps", message: "opus refused \(target.bitrateKbps) kb/s")
        }
        _ = voicerack_ope_set_muxing_delay(encoder, Int32(48 * Self.pageMilliseconds))
        // The headers go out now, so a server sees a valid stream before the first audio page.
        _ = ope_encoder_flush_header(encoder)
    }

    deinit {
        ope_encoder_destroy(encoder)
        ope_comments_destroy(comments)
    }

    func encode(_ interleaved: UnsafePointer<Float>, frames: Int) throws(StreamError) {
        let rc = ope_encoder_write_float(encoder, interleaved, Int32(frames))
        guard rc == OPE_OK else {
            throw .badSetting(key: "format", message: "opus encoding failed: \(String(cString: ope_strerror(rc)))")
        }
    }

    func finish() { _ = ope_encoder_drain(encoder) }

    func takeOutput() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }
}
