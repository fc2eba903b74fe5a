import Foundation
import VoiceEngine

extension PresetSchema {
    /// `[backing]` (the backing-track player) and the karaoke tap's mix in `[recording]`.
    static let backingKeys: [PresetKey] = [
        backingFile,
        .number(
            "backing", "level_db", \.session.backingLevelDB, -60...12, "dB",
            "Level of the backing track on speaker_out (and so in the echo reference and the monitor)."),
        .boolean("backing", "loop", \.session.backingLoop, "Start the track again when it ends (no gap)."),
        .number(
            "recording", "karaoke_voice_db", \.session.karaokeVoiceDB, -60...12, "dB",
            "Level of the processed voice in the karaoke tap."),
        .number(
            "recording", "karaoke_backing_db", \.session.karaokeBackingDB, -60...12, "dB",
            "Level of the backing in the karaoke tap, relative to how it plays on the speakers."),
    ]

    /// `backing.file`: a path, relative to the preset file; the player checks it when it opens it.
    static let backingFile = PresetKey(
        section: "backing", name: "file", unit: "",
        help:
            "Backing track (any format libsndfile reads, mono or stereo, any rate), relative to this preset; --backing overrides; empty = none.",
        kind: .text(
            "\"\" or a path to an audio file", get: { $0.session.backingFile }, set: { $0.session.backingFile = $1 },
            check: { _ in nil }))

    /// A path given in the preset at `presetPath` (`backing.file`, `stream.password_file`), made usable from anywhere: a
    /// relative path is taken relative to the preset's folder.
    static func pathRelativeToPreset(_ file: String, presetPath: String) -> String {
        guard !file.isEmpty, !file.hasPrefix("/") else { return file }
        let folder = URL(fileURLWithPath: presetPath).deletingLastPathComponent()
        return folder.appendingPathComponent(file).standardizedFileURL.path
    }
}
