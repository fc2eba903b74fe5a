import Foundation

/// The `[stream]` section of a preset (and what `--stream URL` fills): where and how to stream.
///
/// ```toml
/// [stream]
/// url = "icecast://source@radio.example:8000/live.opus"   # password here, or:
/// password_env = "VOICERACK_STREAM_PASSWORD"              # an environment variable, or
/// password_file = "~/.config/voicerack/stream-password"   # the first line of a file
/// format = "opus"            # opus | mp3
/// bitrate_kbps = 64          # opus 6...510, mp3 a LAME CBR rate (8...320)
/// channels = 1               # 1 or 2 (a mono tap is copied to both)
/// name = "My show"
/// description = "Live from the kitchen"
/// genre = "Talk"
/// ```
///
/// `resolve` checks it and produces the `StreamTarget` the streamer uses. Passwords never appear
/// in messages.
///
/// - Realtime: never.
public struct StreamSettings: Sendable, Equatable {
    public var url: String
    /// nil: from the mount's extension (`.mp3` → mp3), else opus.
    public var format: String?
    /// nil: the format's default (opus 64, mp3 128).
    public var bitrateKbps: Int?
    public var channels: Int = 1
    public var name: String?
    public var description: String?
    public var genre: String?
    /// Name of an environment variable holding the password.
    public var passwordEnv: String?
    /// Path of a file whose first line is the password.
    public var passwordFile: String?

    public init(url: String) { self.url = url }

    /// The keys of the `[stream]` section, as the presets layer names them.
    public static let keys = [
        "url", "format", "bitrate_kbps", "channels", "name", "description", "genre", "password_env", "password_file",
    ]

    /// Checks every setting and finds the password (URL, then `password_env`, then
    /// `password_file`; more than one is an error). Errors name the key at fault (exit 64).
    public func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StreamError)
        -> StreamTarget
    {
        let (parsed, format, kbps) = try checkWithoutPassword()
        let password = try resolvePassword(url: parsed, environment: environment)
        return StreamTarget(
            url: parsed, password: password, format: format, bitrateKbps: kbps, channels: channels,
            name: name, description: description, genre: genre)
    }

    /// Checks everything but the password (which may live in the environment only at run time):
    /// the URL, the format against the mount, the bitrate against the format, channels and the
    /// one-line metadata. Presets run it when they load, so their errors get a line.
    public func checkWithoutPassword() throws(StreamError) -> (url: IcecastURL, format: StreamFormat, kbps: Int) {
        let parsed = try IcecastURL(parsing: url)
        let format = try resolveFormat(mount: parsed.mount)
        let kbps = bitrateKbps ?? format.defaultBitrateKbps
        try format.validate(bitrateKbps: kbps)
        guard channels == 1 || channels == 2 else {
            throw .badSetting(key: "channels", message: "\(channels) is not 1 or 2")
        }
        for (key, value) in [("name", name), ("description", description), ("genre", genre)] {
            if let value, value.contains(where: { $0.isNewline }) {
                throw .badSetting(key: key, message: "must be one line")
            }
        }
        return (parsed, format, kbps)
    }

    private func resolveFormat(mount: String) throws(StreamError) -> StreamFormat {
        guard let format else { return mount.lowercased().hasSuffix(".mp3") ? .mp3 : .opus }
        guard let f = StreamFormat(rawValue: format.lowercased()) else {
            throw .badSetting(key: "format", message: "'\(format)' is not opus or mp3")
        }
        return f
    }

    private func resolvePassword(url: IcecastURL, environment: [String: String]) throws(StreamError) -> Secret {
        let given = [url.password != nil, passwordEnv != nil, passwordFile != nil].filter { $0 }.count
        guard given <= 1 else {
            throw .badSetting(
                key: "password", message: "give the password once: in the URL, password_env or password_file")
        }
        if let password = url.password { return password }
        if let name = passwordEnv {
            guard let value = environment[name], !value.isEmpty else {
                throw .badSetting(key: "password_env", message: "environment variable \(name) is not set or empty")
            }
            return Secret(value)
        }
        if let path = passwordFile {
            let expanded = (path as NSString).expandingTildeInPath
            guard let text = try? String(contentsOfFile: expanded, encoding: .utf8) else {
                throw .badSetting(key: "password_file", message: "cannot read \(path)")
            }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard !line.isEmpty else { throw .badSetting(key: "password_file", message: "\(path) is empty") }
            return Secret(line)
        }
        throw .badSetting(
            key: "password",
            message: "no password: put it in the URL (icecast://source:PASS@...), password_env or password_file")
    }
}

/// A checked stream destination: server, mount, credentials, encoding and metadata.
///
/// Its `description` is the redacted form for logs (`icecast://source@host:8000/live.opus, opus
/// 64 kb/s mono`): the password is never part of it.
///
/// - Realtime: never.
public struct StreamTarget: Sendable, Equatable, CustomStringConvertible {
    public let url: IcecastURL
    package let password: Secret
    public let format: StreamFormat
    public let bitrateKbps: Int
    public let channels: Int
    public let name: String?
    public let streamDescription: String?
    public let genre: String?

    package init(
        url: IcecastURL, password: Secret, format: StreamFormat, bitrateKbps: Int, channels: Int, name: String?,
        description: String?, genre: String?
    ) {
        var u = url
        u.password = nil
        self.url = u
        self.password = password
        self.format = format
        self.bitrateKbps = bitrateKbps
        self.channels = channels
        self.name = name
        self.streamDescription = description
        self.genre = genre
    }

    /// The server and mount without the password: `icecast://source@host:8000/live.opus`.
    public var server: String { "icecast://\(url.user)@\(url.host):\(url.port)\(url.mount)" }

    public var description: String {
        "\(server), \(format.rawValue) \(bitrateKbps) kb/s \(channels == 1 ? "mono" : "stereo")"
    }
}
