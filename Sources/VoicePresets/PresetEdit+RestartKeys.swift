import VoiceEngine
import VoiceSession

extension PresetEdit {
    /// The keys a running engine cannot take live (a change needs a restart), for surfaces that
    /// show them as such.
    ///
    /// Asked of the engine's own rule (`EngineConfiguration.liveUpdate`) and the session's
    /// (`SessionSettings.liveChange`): each key is moved to
    /// another allowed value and the update is checked for a restart, so a key counts as live
    /// here the day the engine takes it live. Text and list keys (the chain's order, files)
    /// always need a restart. - Realtime: never.
    public static func restartKeys(_ configuration: PresetSettings = PresetSettings()) -> Set<String> {
        Set(
            PresetSchema.keys.filter { key in
                var moved = configuration
                switch key.kind {
                case .number(let field, let range, _):
                    let top = Float(range.upperBound)
                    moved[keyPath: field] = configuration[keyPath: field] == top ? Float(range.lowerBound) : top
                case .boolean(let field):
                    moved[keyPath: field].toggle()
                case .choice(let choices, let get, let set):
                    if let other = choices.first(where: { $0 != get(configuration) }) { set(&moved, other) }
                case .text, .list:
                    return true
                }
                return moved == configuration || configuration.engine.liveUpdate(to: moved.engine).needsRestart
                    || configuration.session.liveChange(to: moved.session).needsRestart
            }.map(\.fullName))
    }
}
