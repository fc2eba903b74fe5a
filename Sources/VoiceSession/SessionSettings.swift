/// What a preset decides about the session around the engine: how the client joins JACK, how it
/// records, the backing track it plays and the stream it sends.
///
/// The engine never sees these (`EngineConfiguration` holds what it renders); the host reads
/// them when the session starts, and `backingLevelDB` while it runs. Presets (`[jack]`,
/// `[pipewire]`, `[recording]`, `[backing]`, `[stream]`) build it beside the engine's configuration. Units
/// are in the property names; strings are empty and numbers 0 when unset, unless noted.
///
/// - Realtime: never; any thread (a plain value).
public struct SessionSettings: Sendable, Equatable {
    // JACK connections (read by the host when it starts)
    /// Connect mic_in and speaker_out_L/R to the physical ports at start (never adding a second
    /// source to a port a patchbay already connected). False leaves all patching to the user for
    /// good, as `--no-auto-connect` does for one run.
    public var autoConnect = true

    // The PipeWire desktop (read by the host when it starts; `[pipewire]`, docs/pipewire.md)
    /// Link voicerack between the desktop's voicerack nodes and the devices, as `--pipewire`.
    public var pipeWireEnabled = false
    /// `node.name` of the microphone node and of the call-audio node.
    public var pipeWireMicNode = "voicerack-mic"
    public var pipeWireCallNode = "voicerack-call"
    /// Make the two nodes the default source and sink, as `--make-default`.
    public var pipeWireMakeDefault = false
    /// The desktop notification for talking while muted: its summary (empty: none) and body.
    public var mutedNoticeSummary = "You are talking while muted"
    public var mutedNoticeBody = "voicerack's microphone is muted: unmute it to be heard."

    // Recording
    /// Format of `voicerack run`'s recordings, `CONTAINER[:ENCODING]`; empty = from each file's
    /// extension. `--format` overrides it.
    public var recordingFormat = ""
    /// Level of the voice in the karaoke tap (processed voice + backing, stereo), dB.
    public var karaokeVoiceDB: Float = 0
    /// Level of the backing in the karaoke tap, relative to how it plays on the speakers, dB.
    public var karaokeBackingDB: Float = 0

    // Backing track (the host plays it into speaker_out and the reference)
    /// The track to play; empty = none unless `--backing` names one. Presets give it relative
    /// to the preset file; resolved to a usable path when the preset is loaded.
    public var backingFile = ""
    /// Level of the backing track on speaker_out, dB; the one setting here that changes live.
    public var backingLevelDB: Float = 0
    /// Start the track again when it ends.
    public var backingLoop = false

    // Loudness
    /// `agc.target_lufs`: the short-term loudness the voice is steered to, LUFS; 0 = off (the
    /// leveller keeps its dBFS target).
    public var levellerTargetLUFS: Float = 0

    // Icecast stream (`[stream]` in presets, overridden by --stream flags)
    /// `icecast://USER@HOST:PORT/MOUNT`, never with a password; empty = no stream from the preset.
    public var streamURL = ""
    /// The tap streamed: voice, mic, reference, monitor or karaoke.
    public var streamTap = "voice"
    /// opus or mp3; empty = from the mount's extension.
    public var streamFormat = ""
    /// kb/s; 0 = the format's default (opus 64, mp3 128).
    public var streamBitrateKbps: Float = 0
    /// 1 or 2 channels on air.
    public var streamChannels: Float = 1
    public var streamName = ""
    public var streamDescription = ""
    public var streamGenre = ""
    /// Environment variable holding the source password.
    public var streamPasswordEnv = ""
    /// File whose first line is the source password; resolved relative to the preset file.
    public var streamPasswordFile = ""
    /// Start streaming when `run` starts; false: only on `stream start` or the stream signal.
    public var streamAutostart = true

    public init() {}

    /// The part of the change from `self` (what runs) to `new` a running session takes: the
    /// backing track's level (the host sets it on the track, where it glides). Everything else
    /// here is read once at start; `needsRestart` is true when `new` changes any of it.
    public func liveChange(to new: SessionSettings) -> (reached: SessionSettings, needsRestart: Bool) {
        var reached = self
        reached.backingLevelDB = new.backingLevelDB
        return (reached, reached != new)
    }
}
