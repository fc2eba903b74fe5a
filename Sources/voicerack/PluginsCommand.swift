import ArgumentParser
import Foundation
import VoiceLV2

/// `voicerack plugins`: the installed LV2 plugins a voice path can use.
struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List and show the installed LV2 plugins voicerack can run on the voice.",
        discussion: """
            voicerack finds LV2 plugins on LV2_PATH (or lilv's default folders: ~/.lv2, \
            /usr/local/lib/lv2, /usr/lib/lv2). A plugin fits the mono voice path with 1 or 2 audio \
            inputs (each fed the voice) and 1 or 2 audio outputs (two are averaged), when voicerack \
            provides every feature it requires.
            """,
        subcommands: [List.self, Show.self])

    /// The rate and block size plugins are loaded with to read their latency.
    struct LoadOptions: ParsableArguments {
        @Option(help: "Sample rate (Hz) to load plugins at, for their latency and rate-scaled ranges.")
        var rate: Double = 48_000

        @Option(help: "Block size (samples) to load plugins with.")
        var block: Int = 256

        func validate() throws {
            guard rate >= 8_000, rate <= 384_000 else {
                throw ValidationError("--rate must be 8000...384000 Hz")
            }
            guard block >= 1, block <= 8_192 else {
                throw ValidationError("--block must be 1...8192 samples")
            }
        }

        var configuration: LV2Configuration {
            LV2Configuration(
                sampleRate: rate, maximumBlockSize: block, fixedBlockSize: true, worker: .synchronous)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List the installed plugins usable on a voice path, with latency and real-time capability.")

        @Argument(help: "Words every plugin listed has in its name, URI or category (limiter, lsp, reverb).")
        var words: [String] = []

        @Option(help: ArgumentHelp("Only plugins of this category (Dynamics, Limiter, Reverb...).", valueName: "name"))
        var category: String?

        @Flag(help: .hidden) var names = false

        @OptionGroup var load: LoadOptions

        func run() throws {
            // The words completion offers (`PluginCompletion`), one a line: no plugin loaded.
            if names {
                PluginCompletion.names(uris: LV2World().pluginURIs()).forEach { print($0) }
                return
            }
            let world = LV2World()
            let usable = world.allPlugins().filter {
                $0.voicePathProblem == nil
                    && $0.missingFeatures(supported: load.configuration.supportedFeatures).isEmpty
            }
            let shown = usable.filter(matches).sorted { ($0.category, $0.name) < ($1.category, $1.name) }
            let width = max(40, shown.map(\.uri.count).max() ?? 0)
            let categoryWidth = max(8, shown.map(\.category.count).max() ?? 0)
            func pad(_ text: String, _ n: Int) -> String { text.padding(toLength: n, withPad: " ", startingAt: 0) }
            print("\(pad("URI", width))  LATENCY  RT   \(pad("CATEGORY", categoryWidth))  NAME")
            for info in shown {
                let latency = pluginLatency(world, info)
                let rt = info.hardRTCapable ? "yes" : "no "
                print("\(pad(info.uri, width))  \(latency)  \(rt)  \(pad(info.category, categoryWidth))  \(info.name)")
            }
            let of = shown.count == usable.count ? "" : " of \(usable.count)"
            printNote(
                "\(shown.count)\(of) plugins; LATENCY in samples at \(Int(load.rate)) Hz, RT = lv2:hardRTCapable; `plugins show NAME` takes a URI, a name or a word of either"
            )
        }

        /// The plugin has every word (any case) in its name, URI or category, and the category.
        private func matches(_ info: LV2PluginInfo) -> Bool {
            let text = "\(info.name) \(info.uri) \(info.category)".lowercased()
            if let category, info.category.lowercased() != category.lowercased() { return false }
            return words.allSatisfy { text.contains($0.lowercased()) }
        }

        /// The latency right-aligned in 7 columns: 0 without a latency port, else read from an
        /// instance after one block; "?" when the plugin fails to instantiate.
        private func pluginLatency(_ world: LV2World, _ info: LV2PluginInfo) -> String {
            var text = "0"
            if info.latencyPort != nil {
                do {
                    text = String(
                        try LV2Unit(world: world, uri: info.uri, configuration: load.configuration).latency())
                } catch {
                    text = "?"
                }
            }
            return String(repeating: " ", count: max(0, 7 - text.count)) + text
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show a plugin's audio ports, latency, features and control ports (ranges, defaults, units)."
        )

        @Argument(
            help: "The plugin: its URI, its name, the end of its URI (dpl#mono) or a word of either (dpl).",
            completion: PluginCompletion.kind)
        var plugin: String

        @OptionGroup var load: LoadOptions

        func run() throws {
            let world = LV2World()
            do {
                let info = try world.find(plugin)
                let uri = info.uri
                print(PluginText.describe(info, sampleRate: load.rate))
                if let problem = info.voicePathProblem {
                    throw LV2Error.unusablePorts(plugin: uri, reason: problem)
                }
                if let missing = info.missingFeatures(supported: load.configuration.supportedFeatures).first {
                    throw LV2Error.unsupportedFeature(plugin: uri, feature: missing)
                }
                let unit = try LV2Unit(world: world, uri: uri, configuration: load.configuration)
                print("latency: \(unit.latency()) samples at \(Int(load.rate)) Hz")
                unit.notes.forEach(printNote)
            } catch let error as LV2Error {
                printError(error.description)
                // lilv's own reason (kept off the terminal while it ran), when it gave one.
                if case .instantiationFailed = error { world.lilvMessages.map { "lilv: " + $0 }.forEach(printNote) }
                throw ExitCode(error.exitCode)
            }
        }
    }
}

/// The text of `plugins show`. - Realtime: never.
enum PluginText {
    static func describe(_ info: LV2PluginInfo, sampleRate: Double) -> String {
        let ins = info.audioInputs.count
        let outs = info.audioOutputs.count
        var lines = [
            info.name,
            "uri: \(info.uri)",
            "audio: \(ins) in, \(outs) out" + mapping(ins, outs),
            "real-time: "
                + (info.hardRTCapable
                    ? "hard-RT capable" : "not hard-RT capable (lv2:hardRTCapable missing)"),
            "required features: "
                + (info.requiredFeatures.isEmpty ? "none" : info.requiredFeatures.joined(separator: ", ")),
            "controls (symbol, name, range, default, unit):",
        ]
        let controls = info.controlInputs
        let symbolWidth = controls.map(\.symbol.count).max() ?? 0
        let nameWidth = controls.map(\.name.count).max() ?? 0
        for port in controls {
            let range = port.range(sampleRate: sampleRate)
            var kind = ""
            if port.toggled { kind = " (on/off)" } else if port.integer { kind = " (integer)" }
            lines.append(
                "  \(port.symbol.padding(toLength: symbolWidth, withPad: " ", startingAt: 0))  "
                    + "\(port.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  "
                    + "\(number(range.lowerBound))...\(number(range.upperBound))  "
                    + "default \(number(port.defaultValue(sampleRate: sampleRate)))"
                    + (port.unit.label.isEmpty ? "" : " \(port.unit.label)") + kind
                    + gainInDecibels(port, range, sampleRate))
            // A choice's named values, as the plugin labels them: `0 Feed-forward, 1 Feed-back`.
            if !port.scalePoints.isEmpty {
                let padding = String(repeating: " ", count: symbolWidth + nameWidth + 6)
                let values = port.scalePoints.map { "\(number($0.value)) \($0.label)" }.joined(separator: ", ")
                lines.append(padding + "values: " + values)
            }
        }
        if controls.isEmpty { lines.append("  (none)") }
        return lines.joined(separator: "\n")
    }

    /// A linear gain port (LSP's `G`: 1 is 0 dB) in dB too, as people think of it:
    /// ` (-60...0 dB, default -12 dB)`; empty for other ports.
    private static func gainInDecibels(_ port: LV2Port, _ range: ClosedRange<Float>, _ sampleRate: Double) -> String {
        guard port.unit.isLinearGain else { return "" }
        func db(_ gain: Float) -> String {
            gain > 0 ? String(format: "%.0f", 20 * log10(Double(gain))) : "-inf"
        }
        return
            " (\(db(range.lowerBound))...\(db(range.upperBound)) dB, default \(db(port.defaultValue(sampleRate: sampleRate)))"
            + " dB)"
    }

    /// How the mono voice reaches the plugin and comes back.
    private static func mapping(_ ins: Int, _ outs: Int) -> String {
        guard (1...2).contains(ins), (1...2).contains(outs) else { return "" }
        let input = ins == 1 ? "voice in" : "voice into both inputs"
        let output = outs == 1 ? "output is the voice" : "the two outputs averaged to the voice"
        return " (\(input); \(output))"
    }

    /// A value without trailing zeros: 0.4, 19200, -70.
    private static func number(_ v: Float) -> String {
        v == v.rounded() && abs(v) < 1e7 ? String(Int(v)) : String(format: "%g", Double(v))
    }
}
