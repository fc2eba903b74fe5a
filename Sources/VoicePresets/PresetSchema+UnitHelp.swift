import VoiceUnits

extension PresetSchema {
    /// The help line of an effect unit's key, from its declaration: the name, the names of an
    /// enumerated parameter's values, and how a change reaches the signal when it glides or
    /// crossfades (`Bypass: 0 off, 1 on; a change glides over 10 ms.`). `presets show`, the
    /// panel and rendered presets show it.
    ///
    /// - Realtime: never.
    static func help(_ parameter: ParameterDescriptor) -> String {
        var text = parameter.name
        if !parameter.labels.isEmpty {
            text += ": " + parameter.labels.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
        }
        switch parameter.smoothing {
        case .glide(let milliseconds): text += "; a change glides over \(PresetNumber.text(Double(milliseconds))) ms"
        case .crossfade(let milliseconds):
            text += "; a change crossfades over \(PresetNumber.text(Double(milliseconds))) ms"
        case .followed, .immediate: break
        }
        return text + "."
    }
}
