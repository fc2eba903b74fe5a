import Foundation
import Testing
import VoiceEngine
import VoiceLV2

@testable import VoicePresets

/// The plugin host the tests' preset libraries are given: the shipped presets include
/// podcast-lv2, whose LV2 units are checked through it, in the system's LV2 folder, where
/// scripts/install-deps.sh installs the plugins it uses.
let lv2Host: any PluginHost = LV2PluginHost(path: "/usr/lib/lv2", worker: .synchronous)

/// The repository's `presets/` directory, found by walking up from this file to `Package.swift`.

func shippedPresetsDirectory(file: String = #filePath) -> String {
    var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            return directory.appendingPathComponent("presets").path
        }
        directory.deleteLastPathComponent()
    }
    Issue.record("no Package.swift above \(file)")
    return "presets"
}

/// A fresh directory under the system temp dir for preset files; removed when released.
final class TemporaryPresets {
    let directory: String

    init() throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("voicerack-presets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `text` to `<directory>/<name>.toml` and returns the path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name + ".toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A library of this directory (user presets) followed by the shipped presets.
    var library: PresetLibrary {
        PresetLibrary(directories: [directory, shippedPresetsDirectory()], pluginHost: lv2Host)
    }
}

/// Runs `body`, expecting a `PresetError`; records an issue and returns nil when none is thrown.
func presetError(
    _ body: () throws(PresetError) -> Preset, sourceLocation: SourceLocation = #_sourceLocation
) -> PresetError? {
    do {
        let preset = try body()
        Issue.record("expected a PresetError, loaded '\(preset.name)'", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
