import Foundation

/// What the live loudness meter reads at one moment: the voice now, and the take so far.
///
/// Loudness in LUFS, range in LU, true peak in dBTP; nil where libebur128 has nothing above
/// R128's −70 LUFS gate yet (silence has no loudness).
///
/// - Realtime: never; any thread (a plain value).
public struct LoudnessFigures: Sendable, Equatable {
    /// Loudness of the last 400 ms.
    public var momentary: Double?
    /// Loudness of the last 3 s: what `agc.target_lufs` steers.
    public var shortTerm: Double?
    /// The take's integrated loudness, range and true peak (since the meter started or the last
    /// `LiveLoudness.startTake`).
    public var take = LoudnessReading(integrated: nil, range: nil, truePeak: nil)
    /// Seconds of audio the meter has measured since it started; frames it did not measure
    /// (its thread fell behind, or the cycles never ran: a gap in the timeline), not counted in
    /// `seconds`.
    public var seconds: Double = 0
    public var framesLost = 0

    public init() {}

    /// The status line's part: `-16.2 LUFS` (short-term), `-- LUFS` while silent.
    public var statusText: String {
        shortTerm.map { String(format: "%.1f LUFS", $0) } ?? "-- LUFS"
    }
}
