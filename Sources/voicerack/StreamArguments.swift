import ArgumentParser
import VoiceEngine
import VoicePresets
import VoiceRecorder
import VoiceStream

/// The `--stream` options `run` and `process` share. Each one overrides the preset's `[stream]`
/// key of the same meaning; `--stream URL` also overrides `stream.url`.
///
/// - Realtime: never; main thread.
struct StreamArguments: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stream to icecast://USER@HOST:PORT/MOUNT.",
            valueName: "url"))
    var stream: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Tap to stream (default: voice).",
            valueName: "tap"), completion: ValueCompletion.streamTap)
    var streamTap: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "opus or mp3 (default: from the mount's extension).",
            valueName: "format"), completion: ValueCompletion.streamFormat)
    var streamFormat: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Bitrate in kb/s (default: 64 Opus, 128 MP3).", valueName: "kbps"))
    var streamBitrate: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Environment variable holding the password.", valueName: "name"))
    var streamPasswordEnv: String?

    @Option(
        name: .long, help: ArgumentHelp("File whose first line is the password.", valueName: "path"))
    var streamPasswordFile: String?

    @Option(name: .long, help: ArgumentHelp("Stream name shown by Icecast.", valueName: "text"))
    var streamName: String?

    func validate() throws {
        if let streamTap, Tap(rawValue: streamTap) == nil || streamTap == Tap.tuning.rawValue {
            throw ValidationError(
                "--stream-tap \(streamTap) is not a tap that can stream; use voice, mic, reference, monitor or karaoke")
        }
    }

    /// The stream to run: the preset's `[stream]` with these flags over it; nil when neither
    /// names a URL.
    func settings(_ session: SessionSettings) -> (settings: StreamSettings, tap: Tap)? {
        guard var s = session.stream(url: stream) else { return nil }
        if let streamFormat { s.format = streamFormat }
        if let streamBitrate { s.bitrateKbps = streamBitrate }
        // A password source given here (a password in --stream's URL too) replaces the preset's.
        let urlHasPassword = stream.flatMap { try? IcecastURL(parsing: $0) }?.password != nil
        if urlHasPassword || streamPasswordEnv != nil || streamPasswordFile != nil {
            s.passwordEnv = streamPasswordEnv
            s.passwordFile = streamPasswordFile
        }
        if let streamName { s.name = streamName }
        let tap = Tap(rawValue: streamTap ?? session.streamTap) ?? .voice
        return (s, tap)
    }
}
