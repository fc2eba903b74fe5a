/// What a normalisation aims at: an integrated loudness and a true-peak ceiling.
///
/// Podcast platforms ask −16 LUFS for stereo (−19 LUFS for a mono file, which plays 3 LU louder
/// on both loudspeakers) and at most −1 dBTP; EBU R128 asks −23 LUFS for broadcast.
public struct LoudnessTarget: Sendable, Equatable {
    /// Integrated loudness to reach, LUFS.
    public var integrated: Double
    /// The highest true peak allowed, dBTP.
    public var truePeakCeiling: Double
    /// The most gain a normalisation applies, dB: beyond it a near-silent file would mostly
    /// raise its noise.
    public var maximumGain: Double

    /// Loudness `integrated`, ceiling `truePeakCeiling` (−1 dBTP by default), gain at most +30 dB.
    public init(integrated: Double, truePeakCeiling: Double = -1, maximumGain: Double = 30) {
        self.integrated = integrated
        self.truePeakCeiling = truePeakCeiling
        self.maximumGain = maximumGain
    }

    /// The integrated loudness accepted as on target, LU either way.
    public static let loudnessTolerance = 0.1
    /// How far under the ceiling the measured true peak is kept, dB: what another meter's
    /// interpolation may read above libebur128's.
    public static let peakMargin = 0.1
}
