import ArgumentParser
import Foundation
import VoicePresets

/// Shell completion for `--preset`: the names of the presets voicerack finds, and `.toml` files
/// (and folders to walk into) once the word looks like a path.
///
/// - Realtime: never (reads the preset folders; runs only inside the shell's completion call).
enum PresetCompletion {
    /// `--preset`'s completion kind, for `@Option(completion:)`.
    static let kind = CompletionKind.custom { _, _, prefix in candidates(prefix: prefix) }

    /// The candidates for the word `prefix` typed so far.
    static func candidates(prefix: String) -> [String] {
        let names = PresetLibrary.standard(pluginHost: nil).names().filter { $0.hasPrefix(prefix) }
        return names + files(prefix: prefix)
    }

    /// Folders and `.toml` files whose path starts with `prefix` (relative to the working folder).
    static func files(prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let stem = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let listed = folder.isEmpty ? "." : folder
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: listed) else { return [] }
        var found: [String] = []
        for entry in entries.sorted() where entry.hasPrefix(stem) && (!entry.hasPrefix(".") || stem.hasPrefix(".")) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + entry, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found.append(folder + entry + "/")
            } else if entry.hasSuffix(".toml") {
                found.append(folder + entry)
            }
        }
        return found
    }
}
