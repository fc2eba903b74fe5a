import ArgumentParser
import VoicePresets

/// Shell completion of preset keys (`compressor.threshold_dbfs`), wherever the command line
/// takes one: the keys `set` and `get` answer to, from the declarations (the units' parameters,
/// the engine's controls, the schema's switches and choices), never a list written here.
///
/// - Realtime: never (runs only inside the shell's completion call).
enum KeyCompletion {
    /// The completion kind for a key argument, for `@Argument(completion:)`.
    static let kind = CompletionKind.custom { _, _, prefix in candidates(prefix: prefix) }

    /// The keys that start with `prefix`, in the order `show` lists them.
    static func candidates(prefix: String) -> [String] {
        PresetEdit.liveKeys(PresetSettings()).map(\.key).filter { $0.hasPrefix(prefix) }
    }
}
