import Foundation

/// EBU R128 figures of a stretch of audio: what a podcast platform or a broadcaster checks.
///
/// Loudness in LUFS (LKFS), range in LU, true peak in dBTP (4× oversampled, as BS.1770-4 asks).
/// A value is nil when the audio had no block loud enough to count (R128's absolute gate is
/// −70 LUFS): silence has no loudness.
public struct LoudnessReading: Sendable, Equatable {
    /// Integrated (programme) loudness, LUFS.
    public var integrated: Double?
    /// Loudness range (EBU Tech 3342), LU.
    public var range: Double?
    /// The highest true peak of any channel, dBTP; nil for digital silence.
    public var truePeak: Double?

    public init(integrated: Double?, range: Double?, truePeak: Double?) {
        self.integrated = integrated
        self.range = range
        self.truePeak = truePeak
    }

    /// "−16.0 LUFS, range 5.2 LU, true peak −1.1 dBTP"; "silent" parts read "no loudness".
    public var summary: String {
        let loudness = integrated.map { String(format: "%.1f LUFS", $0) } ?? "no loudness (silent)"
        let lra = range.map { String(format: ", range %.1f LU", $0) } ?? ""
        let peak = truePeak.map { String(format: ", true peak %.1f dBTP", $0) } ?? ""
        return loudness + lra + peak
    }
}
