/// An encoder that turns interleaved float frames into the bytes of a stream (Ogg pages, MP3
/// frames), collected in `output` until the sender takes them.
///
/// A new encoder is made for every connection, so each one starts with its own headers (an Ogg
/// Opus stream must begin with OpusHead and OpusTags for the server and every listener).
///
/// - Realtime: never; the sender thread owns it.
protocol StreamEncoder: AnyObject {
    /// Encodes `frames` interleaved frames of the encoder's channel count.
    func encode(_ interleaved: UnsafePointer<Float>, frames: Int) throws(StreamError)
    /// Encodes what is buffered and ends the stream (Ogg end-of-stream page, MP3 flush).
    func finish()
    /// Bytes produced since the last call.
    func takeOutput() -> [UInt8]
}

/// Makes the encoder for `target` at `sampleRate` (Hz).
func makeEncoder(_ target: StreamTarget, sampleRate: Int) throws(StreamError) -> any StreamEncoder {
    switch target.format {
    case .opus: try OpusStreamEncoder(target, sampleRate: sampleRate)
    case .mp3: try MP3StreamEncoder(target, sampleRate: sampleRate)
    }
}
