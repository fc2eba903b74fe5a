// The stream's settings (`StreamSettings`, `IcecastURL`, `StreamFormat`, `StreamError`) live in
// VoiceSession, where presets check them without linking a codec; the streamer's users name
// them beside the streamer, so they come with it.
@_exported import VoiceSession
