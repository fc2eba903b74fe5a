import ArgumentParser
import VoiceFiles
import VoiceHost
import VoiceRecorder

/// The values shells complete for the options that take one of a known set: the names come from
/// the same lists the options are checked against, so completion never offers a value the
/// option refuses.
///
/// - Realtime: never; main thread (evaluated when the command is parsed or a completion script
///   is generated).
enum ValueCompletion {
    /// `--log-level`: swift-log's levels, least severe first.
    static let logLevel = CompletionKind.list(LogLevelChoice.names)
    /// `--format`: containers and the container:encoding pairs libsndfile writes.
    static var format: CompletionKind { .list(AudioFormat.completionNames) }
    /// `--stream-tap`: every tap but the three-channel tuning one.
    static let streamTap = CompletionKind.list(Tap.allCases.filter { $0 != .tuning }.map(\.rawValue))
    /// `--stream-format`.
    static let streamFormat = CompletionKind.list(["opus", "mp3"])
}
