import ArgumentParser
import Foundation
import VoiceDeepFilter

/// `--deepfilter-dir`, shared by `run` and `process`: where DeepFilterNet 3's runtime and model
/// are, for presets with `preprocessor.suppressor = "deepfilter"`. - Realtime: never; main thread.
struct DeepFilterArguments: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "DeepFilterNet 3's runtime folder (docs/deepfilter.md)",
            valueName: "dir"), completion: .directory)
    var deepfilterDir: String?

    /// Hands the folder to `DeepFilterRuntime` (through its environment variable, which engines
    /// built later, on any thread, read).
    func apply() {
        if let deepfilterDir { setenv(DeepFilterRuntime.directoryVariable, deepfilterDir, 1) }
    }
}
