import CLame

/// Constant-bitrate MP3 through LAME (any input rate LAME takes; it picks the MPEG rate).
///
/// No Xing/LAME tag is written: a stream has no end to seek from.
///
/// - Realtime: never; the sender thread owns it.
final class MP3StreamEncoder: StreamEncoder {
    private let lame: OpaquePointer
    private let channels: Int
    private var scratch: [UInt8] = []
    private var output: [UInt8] = []

    init(_ target: StreamTarget, sampleRate: Int) throws(StreamError) {
        guard let l = lame_init() else { throw .badSetting(key: "format", message: "LAME could not start") }
        lame = l
        channels = target.channels
        lame_set_in_samplerate(lame, Int32(sampleRate))
        lame_set_num_channels(lame, Int32(channels))
        lame_set_mode(lame, channels == 1 ? MONO : JOINT_STEREO)
        lame_set_brate(lame, Int32(target.bitrateKbps))
        lame_set_bWriteVbrTag(lame, 0)
        guard lame_init_params(lame) >= 0 else {
            lame_close(lame)
            throw .badSetting(
                key: "format",
                message: "LAME refused \(sampleRate) Hz at \(target.bitrateKbps) kb/s, \(channels) channels")
        }
    }

    deinit { lame_close(lame) }

    func encode(_ interleaved: UnsafePointer<Float>, frames: Int) throws(StreamError) {
        // LAME's worst case: 1.25 × samples + 7200 bytes.
        let room = frames * 5 / 4 + 7200
        if scratch.count < room { scratch = [UInt8](repeating: 0, count: room) }
        let n = scratch.withUnsafeMutableBufferPointer { out -> Int32 in
            if channels == 1 {
                return lame_encode_buffer_ieee_float(
                    lame, interleaved, nil, Int32(frames), out.baseAddress, Int32(room))
            }
            return lame_encode_buffer_interleaved_ieee_float(
                lame, interleaved, Int32(frames), out.baseAddress, Int32(room))
        }
        guard n >= 0 else { throw .badSetting(key: "format", message: "MP3 encoding failed (\(n))") }
        output.append(contentsOf: scratch[0..<Int(n)])
    }

    func finish() {
        if scratch.count < 7200 { scratch = [UInt8](repeating: 0, count: 7200) }
        let n = scratch.withUnsafeMutableBufferPointer { lame_encode_flush(lame, $0.baseAddress, 7200) }
        if n > 0 { output.append(contentsOf: scratch[0..<Int(n)]) }
    }

    func takeOutput() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }
}
