import VoiceEngine
import VoiceStream

extension PresetSchema {
    /// The taps a stream can carry (tuning's three channels are for diagnosis, not for air).
    static let streamTaps = ["voice", "mic", "reference", "monitor", "karaoke"]

    /// `[stream]`: an Icecast stream for `voicerack run` (and the settings `process --stream`
    /// uses). The password is never a key: a preset is shared and shown (`presets show`), so it
    /// names where the password lives instead.
    static let streamKeys: [PresetKey] = [
        PresetKey(
            section: "stream", name: "url", unit: "",
            help:
                "Icecast mount to stream to, without the password; empty = no stream unless --stream URL is given.",
            kind: .text(
                "\"\" or icecast://USER@HOST:PORT/MOUNT (no password)", get: { $0.streamURL },
                set: { $0.streamURL = $1 }, check: streamURLProblem)),
        PresetKey(
            section: "stream", name: "tap", unit: "", help: "What to stream.",
            kind: .choice(streamTaps, get: { $0.streamTap }, set: { $0.streamTap = $1 })),
        PresetKey(
            section: "stream", name: "format", unit: "",
            help: "Encoding; auto = mp3 for a mount ending in .mp3, else opus.",
            kind: .choice(
                ["auto"] + StreamFormat.allCases.map(\.rawValue),
                get: { $0.streamFormat.isEmpty ? "auto" : $0.streamFormat },
                set: { $0.streamFormat = $1 == "auto" ? "" : $1 })),
        .number(
            "stream", "bitrate_kbps", \.streamBitrateKbps, 6...510, "kb/s",
            "Bitrate: opus 6...510, mp3 one of LAME's rates (8, 16 ... 128 ... 320).", zero: "the format's default"),
        .number("stream", "channels", \.streamChannels, 1...2, "", "Channels on air (a mono tap is copied to both)."),
        streamText("name", \.streamName, "Stream name Icecast shows."),
        streamText("description", \.streamDescription, "Stream description Icecast shows."),
        streamText("genre", \.streamGenre, "Stream genre Icecast shows."),
        streamText(
            "password_env", \.streamPasswordEnv, "Environment variable holding the source password.",
            allowed: "\"\" or a variable name"),
        streamText(
            "password_file", \.streamPasswordFile,
            "File whose first line is the source password, relative to this preset (keep it private: chmod 600).",
            allowed: "\"\" or a path"),
        .boolean(
            "stream", "autostart", \.streamAutostart,
            "Stream from the start of `voicerack run`; false waits for `stream start` or SIGRTMIN+1."),
    ]

    private static func streamText(
        _ name: String, _ field: WritableKeyPath<EngineConfiguration, String> & Sendable, _ help: String,
        allowed: String = "\"\" or one line of text"
    ) -> PresetKey {
        PresetKey(
            section: "stream", name: name, unit: "", help: help,
            kind: .text(
                allowed, get: { $0[keyPath: field] }, set: { $0[keyPath: field] = $1 },
                check: { $0.contains(where: \.isNewline) ? "must be one line" : nil }))
    }

    /// Why `text` cannot be `stream.url` (nil when it can): not an icecast URL, or one holding a
    /// password, which a preset must never keep.
    @Sendable static func streamURLProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        do {
            let url = try IcecastURL(parsing: text)
            if url.password != nil {
                return
                    "a preset never holds the password (presets are shared and printed); remove it from the URL and set stream.password_env or stream.password_file"
            }
            return nil
        } catch {
            if case .badSetting(_, let message) = error { return message }
            return error.description
        }
    }
}

/// The `[stream]` settings of a resolved configuration as the streamer takes them.
///
/// - Realtime: never.
public enum PresetStream {
    /// The stream settings for `url` (the preset's `stream.url` when nil), with the preset's
    /// format, bitrate, channels, metadata and password source. Nil when neither gives a URL.
    public static func settings(_ configuration: EngineConfiguration, url: String? = nil) -> StreamSettings? {
        let chosen = url ?? configuration.streamURL
        guard !chosen.isEmpty else { return nil }
        var s = StreamSettings(url: chosen)
        s.format = configuration.streamFormat.isEmpty ? nil : configuration.streamFormat
        s.bitrateKbps = configuration.streamBitrateKbps == 0 ? nil : Int(configuration.streamBitrateKbps)
        s.channels = Int(configuration.streamChannels)
        s.name = configuration.streamName.isEmpty ? nil : configuration.streamName
        s.description = configuration.streamDescription.isEmpty ? nil : configuration.streamDescription
        s.genre = configuration.streamGenre.isEmpty ? nil : configuration.streamGenre
        s.passwordEnv = configuration.streamPasswordEnv.isEmpty ? nil : configuration.streamPasswordEnv
        s.passwordFile = configuration.streamPasswordFile.isEmpty ? nil : configuration.streamPasswordFile
        return s
    }

    /// The first problem of the resolved `[stream]` section that no single key shows (bitrate vs
    /// format, format vs mount, fractional channels, both password sources), as (key, message).
    static func problem(_ configuration: EngineConfiguration) -> (key: String, message: String)? {
        if configuration.streamChannels != configuration.streamChannels.rounded() {
            return ("channels", "\(configuration.streamChannels) is not 1 or 2")
        }
        if configuration.streamBitrateKbps != configuration.streamBitrateKbps.rounded() {
            return ("bitrate_kbps", "\(configuration.streamBitrateKbps) is not a whole number of kb/s")
        }
        if !configuration.streamPasswordEnv.isEmpty && !configuration.streamPasswordFile.isEmpty {
            return ("password_file", "give one of password_env and password_file, not both")
        }
        // A placeholder mount stands in when only --stream will give the URL.
        guard let settings = settings(configuration) ?? settings(configuration, url: "icecast://source@localhost/check")
        else { return nil }
        do {
            _ = try settings.checkWithoutPassword()
            return nil
        } catch {
            if case .badSetting(let key, let message) = error { return (key, message) }
            return ("url", error.description)
        }
    }
}
