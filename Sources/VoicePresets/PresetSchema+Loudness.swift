import Foundation

extension PresetSchema {
    /// `agc.target_lufs`: a loudness target for the leveller, steered by the live loudness meter
    /// (`LoudnessSteering`). A session key: the engine renders as before, only its `target_dbfs`
    /// is moved.
    static let levellerTargetLUFS = PresetKey.number(
        "agc", "target_lufs", \.session.levellerTargetLUFS, -40...(-10), "LUFS",
        "Short-term loudness (EBU R128, measured by libebur128 on voice_out) the voice is steered to: a slow loop moves target_dbfs within speed_db_per_s. Needs enabled = true. -19 for a mono voice podcast, -23 for broadcast.",
        zero: "off")

    /// `agc.target_lufs` steers the leveller, so it needs `agc.enabled`; the error names both.
    static func checkLoudnessTarget(_ settings: PresetSettings, file: String, line: Int?) throws(PresetError) {
        guard settings.session.levellerTargetLUFS != 0, !settings.engine.leveller else { return }
        throw PresetError(
            file: file, line: line, key: levellerTargetLUFS.fullName,
            message:
                "agc.target_lufs = \(PresetNumber.text(Double(settings.session.levellerTargetLUFS))) needs agc.enabled = true: it steers the leveller's target_dbfs from the live loudness meter"
        )
    }
}
