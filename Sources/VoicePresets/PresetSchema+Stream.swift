import VoiceSession

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
                "\"\" or icecast://USER@HOST:PORT/MOUNT (no password)", get: { $0.session.streamURL },
                set: { $0.session.streamURL = $1 }, check: SessionSettings.streamURLProblem)),
        PresetKey(
            section: "stream", name: "tap", unit: "", help: "What to stream.",
            kind: .choice(streamTaps, get: { $0.session.streamTap }, set: { $0.session.streamTap = $1 })),
        PresetKey(
            section: "stream", name: "format", unit: "",
            help: "Encoding; auto = mp3 for a mount ending in .mp3, else opus.",
            kind: .choice(
                ["auto"] + StreamFormat.allCases.map(\.rawValue),
                get: { $0.session.streamFormat.isEmpty ? "auto" : $0.session.streamFormat },
                set: { $0.session.streamFormat = $1 == "auto" ? "" : $1 })),
        .number(
            "stream", "bitrate_kbps", \.session.streamBitrateKbps, 6...510, "kb/s",
            "Bitrate: opus 6...510, mp3 one of LAME's rates (8, 16 ... 128 ... 320).", zero: "the format's default"),
        .number(
            "stream", "channels", \.session.streamChannels, 1...2, "", "Channels on air (a mono tap is copied to both)."
        ),
        streamText("name", \.session.streamName, "Stream name Icecast shows."),
        streamText("description", \.session.streamDescription, "Stream description Icecast shows."),
        streamText("genre", \.session.streamGenre, "Stream genre Icecast shows."),
        streamText(
            "password_env", \.session.streamPasswordEnv, "Environment variable holding the source password.",
            allowed: "\"\" or a variable name"),
        streamText(
            "password_file", \.session.streamPasswordFile,
            "File whose first line is the source password, relative to this preset (keep it private: chmod 600).",
            allowed: "\"\" or a path"),
        .boolean(
            "stream", "autostart", \.session.streamAutostart,
            "Stream from the start of `voicerack run`; false waits for `stream start` or SIGRTMIN+1."),
    ]

    private static func streamText(
        _ name: String, _ field: WritableKeyPath<PresetSettings, String> & Sendable, _ help: String,
        allowed: String = "\"\" or one line of text"
    ) -> PresetKey {
        PresetKey(
            section: "stream", name: name, unit: "", help: help,
            kind: .text(
                allowed, get: { $0[keyPath: field] }, set: { $0[keyPath: field] = $1 },
                check: { $0.contains(where: \.isNewline) ? "must be one line" : nil }))
    }
}
