import ArgumentParser
import Foundation

/// The `voicerack` command: a voice processing host for JACK.
@main
struct Voicerack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voicerack",
        abstract: "Echo cancellation, noise suppression and levelling for your voice, as a JACK client.",
        discussion: """
            voicerack cleans a microphone signal: it cancels the echo of what your loudspeakers play \
            (the far end), suppresses noise and levels the voice. `run` is the live JACK client; \
            `process` runs the same engine over files, with the block size a JACK server would use.

            Presets configure the engine: see `voicerack presets list`. LV2 plugins installed on the \
            system: see `voicerack plugins list`.

            Exit codes (sysexits): 0 ok, 64 usage, 65 bad input data (audio file, preset), \
            66 an input file does not exist, 69 JACK server unavailable, 70 internal error, \
            73 output cannot be created (or exists: use --force), 74 I/O error, \
            77 a server refused the credentials (Icecast password), 130 interrupted (nothing partial kept).
            """,
        version: VoicerackVersion.string,
        subcommands: [Run.self, Process.self, Presets.self, Plugins.self, Panel.self],
        // A session manager (NSM) starts the executable without arguments: then `run`.
        defaultSubcommand: ProcessInfo.processInfo.environment["NSM_URL"] == nil ? nil : Run.self)

    /// Runs the command line; `run`'s help comes options first (`RunHelp`), the rest as
    /// swift-argument-parser makes it. - Realtime: never; main thread.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let help = RunHelp.requested(by: arguments) {
            print(help)
            return
        }
        main(arguments)
    }
}
