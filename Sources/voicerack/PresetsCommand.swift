import ArgumentParser
import VoiceControl
import VoiceHost
import VoicePresets

/// `voicerack presets`: list, show and check presets.
struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show and check presets.",
        discussion: """
            Presets are TOML files. voicerack looks in $VOICERACK_PRESETS, then \
            ~/.config/voicerack/presets, then the presets shipped with voicerack. A preset may \
            extend another with `base = "NAME"`. An LV2 plugin joins [chain] order as a unit with \
            a section of its own: lv2 = "URI" and its control ports by symbol (see `voicerack \
            plugins show URI`); `check` validates them against the plugin's own ranges.
            """,
        subcommands: [List.self, Show.self, Check.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the presets voicerack finds and where each comes from.",
            discussion: "Exits 66 (no input) when it finds none, naming the folders it looked in.")

        func run() throws {
            let searchPath = PresetLibrary.standardSearchPath()
            let summaries = PresetLibrary(
                directories: searchPath.map(\.path), pluginHost: LV2Hosting.host(live: false)
            ).summaries()
            guard !summaries.isEmpty else {
                printError(PresetListing.nothingFound(in: searchPath))
                throw ExitCode(66)
            }
            // Names in full, descriptions aligned two spaces after the longest name.
            let width = summaries.map(\.name.count).max() ?? 0
            for summary in summaries {
                let origin = PresetDirectory.origin(of: summary.source, in: searchPath)
                print(
                    "\(summary.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(summary.description)\(PresetListing.originSuffix(origin))"
                )
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a preset with every setting resolved (base applied, defaults filled in).")

        @Argument(help: "Preset name or path to a .toml file.", completion: PresetCompletion.kind)
        var preset: String

        @Argument(
            help: ArgumentHelp(
                "Keys to print alone, as `get` answers them (key = value   (allowed)).", valueName: "key"),
            completion: KeyCompletion.kind)
        var keys: [String] = []

        func run() throws {
            let plugins = LV2Hosting.host(live: false)
            do {
                let loaded = try PresetLibrary.standard(pluginHost: plugins).load(preset)
                guard !keys.isEmpty else {
                    return print(PresetRenderer.toml(loaded, pluginHost: plugins), terminator: "")
                }
                for key in keys {
                    let found: LiveKey
                    do {
                        found = try PresetEdit.liveKey(key, in: loaded.settings, pluginHost: plugins)
                    } catch {
                        throw HostError(.usage, "presets show \(preset): \(error.message)")
                    }
                    print("\(found.key) = \(found.value)   (\(found.allowed))")
                }
            } catch {
                throw failureExit(reporting: error)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate preset files; prints each problem with file, line and key (exit 65 if any).")

        @Argument(help: "Preset files to check.", completion: .file(extensions: ["toml"]))
        var files: [String]

        func run() throws {
            let library = PresetLibrary.standard(pluginHost: LV2Hosting.host(live: false))
            var failed = false
            for file in files {
                do {
                    let preset = try library.check(file)
                    print("\(file): ok (\(preset.name)\(preset.base.map { ", extends \($0)" } ?? ""))")
                } catch {
                    printError(error.description)
                    failed = true
                }
            }
            if failed { throw ExitCode(65) }
        }
    }
}
