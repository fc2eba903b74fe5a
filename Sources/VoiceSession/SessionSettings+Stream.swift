extension SessionSettings {
    /// The stream settings for `url` (the preset's `stream.url` when nil), with the preset's
    /// format, bitrate, channels, metadata and password source. Nil when neither gives a URL.
    ///
    /// - Realtime: never.
    public func stream(url: String? = nil) -> StreamSettings? {
        let chosen = url ?? streamURL
        guard !chosen.isEmpty else { return nil }
        var s = StreamSettings(url: chosen)
        s.format = streamFormat.isEmpty ? nil : streamFormat
        s.bitrateKbps = streamBitrateKbps == 0 ? nil : Int(streamBitrateKbps)
        s.channels = Int(streamChannels)
        s.name = streamName.isEmpty ? nil : streamName
        s.description = streamDescription.isEmpty ? nil : streamDescription
        s.genre = streamGenre.isEmpty ? nil : streamGenre
        s.passwordEnv = streamPasswordEnv.isEmpty ? nil : streamPasswordEnv
        s.passwordFile = streamPasswordFile.isEmpty ? nil : streamPasswordFile
        return s
    }

    /// The first problem of the `[stream]` settings that no single key shows (bitrate vs
    /// format, format vs mount, fractional channels, both password sources), as (key, message);
    /// nil when there is none. Presets ask it when they load, so the error gets a line.
    ///
    /// - Realtime: never.
    public func streamProblem() -> (key: String, message: String)? {
        if streamChannels != streamChannels.rounded() {
            return ("channels", "\(streamChannels) is not 1 or 2")
        }
        if streamBitrateKbps != streamBitrateKbps.rounded() {
            return ("bitrate_kbps", "\(streamBitrateKbps) is not a whole number of kb/s")
        }
        if !streamPasswordEnv.isEmpty && !streamPasswordFile.isEmpty {
            return ("password_file", "give one of password_env and password_file, not both")
        }
        // A placeholder mount stands in when only --stream will give the URL.
        guard let settings = stream() ?? stream(url: "icecast://source@localhost/check") else { return nil }
        do {
            _ = try settings.checkWithoutPassword()
            return nil
        } catch {
            if case .badSetting(let key, let message) = error { return (key, message) }
            return ("url", error.description)
        }
    }

    /// Why `text` cannot be `stream.url` (nil when it can): not an icecast URL, or one holding a
    /// password, which a preset must never keep.
    ///
    /// - Realtime: never.
    @Sendable public static func streamURLProblem(_ text: String) -> String? {
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
