import ArgumentParser
import VoiceLoudness

/// `process`'s loudness options: normalise the output to an integrated loudness under a
/// true-peak ceiling (EBU R128, measured with libebur128).
struct LoudnessArguments: ParsableArguments {
    // Unconditional: the values are negative, and would otherwise read as options.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Normalise the output to this integrated loudness in LUFS (-70 to -5), e.g. -19 for a podcast voice (mono; -16 for stereo), -23 for EBU R128 broadcast.",
            valueName: "LUFS"))
    var loudness: Double?

    @Option(
        name: .customLong("true-peak"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --loudness: the highest true peak allowed in dBTP (-9 to 0; default -1); peaks the gain would push over it are limited.",
            valueName: "dBTP"))
    var truePeak: Double?

    func validate() throws {
        if let loudness, !(-70 ... -5).contains(loudness) {
            throw ValidationError("--loudness \(loudness) is out of range; use -70 to -5 LUFS")
        }
        if let truePeak {
            guard loudness != nil else { throw ValidationError("--true-peak goes with --loudness") }
            guard (-9...0).contains(truePeak) else {
                throw ValidationError("--true-peak \(truePeak) is out of range; use -9 to 0 dBTP")
            }
        }
    }

    /// The target, when normalisation was asked for.
    var target: LoudnessTarget? {
        loudness.map { LoudnessTarget(integrated: $0, truePeakCeiling: truePeak ?? -1) }
    }
}
