/// The encodings voicerack streams: Ogg Opus (libopusenc) and MP3 (LAME).
///
/// - Realtime: never.
public enum StreamFormat: String, Sendable, CaseIterable {
    case opus
    case mp3

    /// The bitrate used when none is given, in kb/s.
    public var defaultBitrateKbps: Int { self == .opus ? 64 : 128 }

    /// Bitrates the encoder takes, in kb/s (LAME's MPEG-1/2 CBR rates; Opus's range).
    public var bitrates: ClosedRange<Int> { self == .opus ? 6...510 : 8...320 }

    /// LAME's constant bitrates (kb/s); the nearest is used when another is asked for is refused.
    static let lameBitrates = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]

    /// The HTTP content type the server announces.
    public var contentType: String { self == .opus ? "audio/ogg" : "audio/mpeg" }

    /// Checks `kbps`; the message lists what is allowed.
    func validate(bitrateKbps kbps: Int) throws(StreamError) {
        switch self {
        case .opus where !bitrates.contains(kbps):
            throw .badSetting(
                key: "bitrate_kbps",
                message: "\(kbps) is outside opus's \(bitrates.lowerBound)...\(bitrates.upperBound) kb/s")
        case .mp3 where !Self.lameBitrates.contains(kbps):
            let list = Self.lameBitrates.map(String.init).joined(separator: ", ")
            throw .badSetting(key: "bitrate_kbps", message: "\(kbps) is not an MP3 bitrate (\(list) kb/s)")
        default: return
        }
    }
}
