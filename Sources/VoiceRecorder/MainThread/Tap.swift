/// A signal voicerack can record.
///
/// Only `tuning` is sample-aligned across its channels (mic and reference are delayed by the
/// engine's latency to line up with the processed voice), which is what diagnosing echo problems
/// needs. Offline, every tap is aligned with the mic.
public enum Tap: String, CaseIterable, Sendable {
    /// The processed voice (mono): what `voice_out` carries.
    case voice
    /// The raw microphone (mono), before any processing.
    case mic
    /// The far-end mix sent to the loudspeakers (L/R): the echo canceller's reference.
    case reference
    /// The ear-return monitor mix (L/R).
    case monitor
    /// Mic, reference (mono mix) and processed voice in three sample-aligned channels.
    case tuning
    /// The karaoke recording (L/R): processed voice plus the backing track, each at the preset's
    /// `recording.karaoke_*_db` level, the backing delayed by the engine's latency so it lines
    /// up with the voice sung over it.
    case karaoke

    /// Channels in the tap's file.
    public var channels: Int {
        switch self {
        case .voice, .mic: return 1
        case .reference, .monitor, .karaoke: return 2
        case .tuning: return 3
        }
    }

    /// Parses `TAP=FILE` (a bare FILE means the voice tap).
    public static func parse(_ text: String) -> (tap: Tap, path: String)? {
        guard let eq = text.firstIndex(of: "=") else { return text.isEmpty ? nil : (.voice, text) }
        guard let tap = Tap(rawValue: String(text[..<eq])), text.index(after: eq) < text.endIndex else { return nil }
        return (tap, String(text[text.index(after: eq)...]))
    }
}
