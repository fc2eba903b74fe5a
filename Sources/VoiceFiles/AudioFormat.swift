import CSndFile
import Foundation

/// A file format as a container and a sample encoding, e.g. `wav:float` or `flac:pcm24`.
///
/// The container comes from `--format`, a preset, or the file extension; the encoding defaults
/// to the container's usual one (32-bit float for WAV-family containers, 24-bit for FLAC, the
/// codec itself for Ogg Vorbis / Opus / MP3). Validity is checked with libsndfile's own
/// `sf_format_check`, so only what the installed libsndfile can write is accepted.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    /// Container names, their libsndfile major format, extensions and default encoding.
    static let containers: [(name: String, major: Int32, extensions: [String], defaultEncoding: String)] = [
        ("wav", Int32(SF_FORMAT_WAV), ["wav"], "float"),
        ("wavex", Int32(SF_FORMAT_WAVEX), [], "float"),
        ("rf64", Int32(SF_FORMAT_RF64), ["rf64"], "float"),
        ("w64", Int32(SF_FORMAT_W64), ["w64"], "float"),
        ("caf", Int32(SF_FORMAT_CAF), ["caf"], "float"),
        ("aiff", Int32(SF_FORMAT_AIFF), ["aif", "aiff"], "pcm24"),
        ("flac", Int32(SF_FORMAT_FLAC), ["flac"], "pcm24"),
        ("ogg", Int32(SF_FORMAT_OGG), ["ogg", "oga"], "vorbis"),
        ("opus", Int32(SF_FORMAT_OGG), ["opus"], "opus"),
        ("mp3", Int32(SF_FORMAT_MPEG), ["mp3"], "mp3"),
    ]

    /// Encoding names and their libsndfile subtype.
    static let encodings: [(name: String, subtype: Int32)] = [
        ("pcm16", Int32(SF_FORMAT_PCM_16)),
        ("pcm24", Int32(SF_FORMAT_PCM_24)),
        ("pcm32", Int32(SF_FORMAT_PCM_32)),
        ("float", Int32(SF_FORMAT_FLOAT)),
        ("double", Int32(SF_FORMAT_DOUBLE)),
        ("vorbis", Int32(SF_FORMAT_VORBIS)),
        ("opus", Int32(SF_FORMAT_OPUS)),
        ("mp3", Int32(SF_FORMAT_MPEG_LAYER_III)),
    ]

    /// Container name, e.g. `wav`.
    public let container: String
    /// Encoding name, e.g. `float`.
    public let encoding: String

    public var description: String { "\(container):\(encoding)" }

    /// libsndfile's `SF_INFO.format` value.
    var sndfileFormat: Int32 {
        let major = Self.containers.first { $0.name == container }!.major
        let minor = Self.encodings.first { $0.name == encoding }!.subtype
        return major | minor
    }

    /// Parses `CONTAINER[:ENCODING]`; throws `.unsupportedFormat` listing what is possible.
    public init(parsing text: String) throws(AudioFileError) {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first, let c = Self.containers.first(where: { $0.name == name }) else {
            throw .unsupportedFormat(
                text, reason: "unknown container; choose one of " + Self.containers.map(\.name).joined(separator: ", "))
        }
        let encoding = parts.count > 1 ? parts[1] : c.defaultEncoding
        guard Self.encodings.contains(where: { $0.name == encoding }) else {
            throw .unsupportedFormat(
                text, reason: "unknown encoding; choose one of " + Self.encodings.map(\.name).joined(separator: ", "))
        }
        self.container = c.name
        self.encoding = encoding
    }

    /// The same format, but WAVEX for WAV files of more than two channels: plain WAV has no
    /// channel layout for them and readers such as sox warn about the missing extension.
    public func suited(toChannels channels: Int) -> AudioFormat {
        guard container == "wav", channels > 2, let x = try? AudioFormat(parsing: "wavex:\(encoding)") else {
            return self
        }
        return x
    }

    /// libsndfile's format for a file of `channels`: WAVEX (WAVE_FORMAT_EXTENSIBLE) for a WAV
    /// of float or double samples too. A non-PCM fmt chunk must carry its extended part, which
    /// libsndfile's plain WAV leaves out for float (readers such as sox warn "wave header
    /// missing extended part of fmt chunk"). The file stays the `wav:float` the user asked for:
    /// WAVEX is a WAV every reader takes.
    func sndfileFormat(channels: Int) -> Int32 {
        guard container == "wav", encoding == "float" || encoding == "double" else {
            return suited(toChannels: channels).sndfileFormat
        }
        return Int32(SF_FORMAT_WAVEX) | (sndfileFormat & Int32(SF_FORMAT_SUBMASK))
    }

    /// The usual file extension for this container (`wav` for WAVEX too), without the dot.
    public var fileExtension: String {
        Self.containers.first { $0.name == container }?.extensions.first ?? "wav"
    }

    /// Bytes one sample takes in the file for uncompressed encodings; nil for codecs.
    public var bytesPerSample: Int? {
        switch encoding {
        case "pcm16": return 2
        case "pcm24": return 3
        case "pcm32", "float": return 4
        case "double": return 8
        default: return nil
        }
    }

    /// True for containers of encoded frames (FLAC, Ogg, Opus, MP3), whose encoders write their
    /// length into the header at close (FLAC's samples are integers, yet encoded).
    public var isEncoded: Bool { ["flac", "ogg", "opus", "mp3"].contains(container) }

    /// True for containers whose 32-bit size fields stop at 4 GiB (WAV, WAVEX, AIFF).
    public var hasFourGigabyteLimit: Bool { ["wav", "wavex", "aiff"].contains(container) }

    /// Every container:encoding pair the installed libsndfile writes (mono, 48 kHz), found by
    /// opening a scratch file in each (sf_format_check alone accepts a few it cannot open).
    public static func writableFormats() -> [AudioFormat] {
        let scratch = "/tmp/.voicerack-format-probe-\(getpid())"
        defer { unlink(scratch) }
        return containers.flatMap { c in
            encodings.compactMap { e in
                guard let f = try? AudioFormat(parsing: "\(c.name):\(e.name)"),
                    f.isWritable(channels: 1, sampleRate: 48_000)
                else { return nil }
                var info = SF_INFO()
                info.format = f.sndfileFormat
                info.channels = 1
                info.samplerate = 48_000
                guard let file = sf_open(scratch, Int32(SFM_WRITE), &info) else { return nil }
                sf_close(file)
                return f
            }
        }
    }

    /// The format a path's extension suggests (`.wav` → `wav:float`), or nil for an unknown one.
    public static func forPath(_ path: String) -> AudioFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        guard let c = containers.first(where: { $0.extensions.contains(ext) }) else { return nil }
        return try? AudioFormat(parsing: c.name)
    }

    /// Encodings this libsndfile can write in this container, for `channels` at `sampleRate`.
    public func validEncodings(channels: Int, sampleRate: Int) -> [String] {
        Self.encodings.compactMap { e in
            let f = (try? AudioFormat(parsing: "\(container):\(e.name)"))
            return f.map { $0.isWritable(channels: channels, sampleRate: sampleRate) } == true ? e.name : nil
        }
    }

    /// True when libsndfile writes this format for `channels` at `sampleRate`: it passes
    /// `sf_format_check` and an encoder really opens (into memory, see `SndfileProbe`).
    /// sf_format_check alone accepts Opus at 44.1 kHz and MP3 at 96 kHz, which fail to open.
    public func isWritable(channels: Int, sampleRate: Int) -> Bool {
        var info = SF_INFO()
        info.format = sndfileFormat
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        return sf_format_check(&info) != 0 && SndfileProbe.opens(info)
    }

    /// What shell completion offers for `--format`: each container, then each
    /// `container:encoding` pair libsndfile's `sf_format_check` accepts (mono, 48 kHz; no file is
    /// opened, so it is cheap enough for every start of the program).
    public static var completionNames: [String] {
        containers.map(\.name)
            + containers.flatMap { c in
                encodings.compactMap { e -> String? in
                    guard let f = try? AudioFormat(parsing: "\(c.name):\(e.name)") else { return nil }
                    var info = SF_INFO()
                    info.format = f.sndfileFormat
                    info.channels = 1
                    info.samplerate = 48_000
                    return sf_format_check(&info) != 0 ? f.description : nil
                }
            }
    }

    /// Sample rates JACK servers commonly run at, offered when a format refuses a rate.
    static let commonRates = [
        8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 88_200, 96_000, 192_000,
    ]

    /// Throws `.unsupportedFormat` when this format cannot be written, naming the rates it
    /// takes when only the rate is wrong, else the possible encodings.
    public func validate(channels: Int, sampleRate: Int) throws(AudioFileError) {
        guard !isWritable(channels: channels, sampleRate: sampleRate) else { return }
        let rates = Self.commonRates.filter { isWritable(channels: channels, sampleRate: $0) }
        let problem = "libsndfile cannot write this for \(channels) channel(s) at \(sampleRate) Hz; "
        if !rates.isEmpty {
            throw .unsupportedFormat(
                description,
                reason: problem + "\(description) takes " + rates.map(String.init).joined(separator: ", ")
                    + " Hz; choose another format (e.g. flac or wav) for this rate")
        }
        let options = validEncodings(channels: channels, sampleRate: sampleRate)
        throw .unsupportedFormat(
            description,
            reason: problem
                + (options.isEmpty
                    ? "this container is not available here"
                    : "possible encodings for \(container): " + options.joined(separator: ", ")))
    }
}
