import Foundation

extension PresetLibrary {
    /// The library the CLI and host use: user presets first, then the shipped ones.
    ///
    /// Order: `$VOICERACK_PRESETS` (colon-separated), `$XDG_CONFIG_HOME/voicerack/presets` (or
    /// `~/.config/voicerack/presets`), `<executable dir>/../share/voicerack/presets` (an installed
    /// tree), then the first `presets/` folder holding `echo-cancel.toml` found walking up from the
    /// executable's directory (so `.build/debug/voicerack` finds the repository's presets).
    /// Directories that do not exist are kept; they simply contribute no presets.
    ///
    /// - Realtime: never.
    public static func standard() -> PresetLibrary {
        PresetLibrary(
            directories: standardDirectories(
                environment: ProcessInfo.processInfo.environment,
                home: FileManager.default.homeDirectoryForCurrentUser.path,
                executable: executablePath()))
    }

    /// `standard()`'s search path, computed from explicit inputs so tests can drive it.
    static func standardDirectories(environment: [String: String], home: String, executable: String?) -> [String] {
        var directories: [String] = []
        if let list = environment["VOICERACK_PRESETS"] {
            directories += list.split(separator: ":").map(String.init)
        }
        // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directories.append(config + "/voicerack/presets")
        } else {
            directories.append((environment["HOME"] ?? home) + "/.config/voicerack/presets")
        }
        if let executable {
            let binDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            directories.append(binDirectory.appendingPathComponent("../share/voicerack/presets").standardized.path)
            if let repository = shippedPresetsAbove(binDirectory) { directories.append(repository) }
        }
        // Keep the first occurrence of each directory: order is the precedence.
        var seen = Set<String>()
        return directories.filter { seen.insert(URL(fileURLWithPath: $0).standardized.path).inserted }
    }

    /// The first `presets/` directory containing `echo-cancel.toml` at or above `directory`.
    private static func shippedPresetsAbove(_ directory: URL) -> String? {
        var current = directory.standardized
        while true {
            let candidate = current.appendingPathComponent("presets")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("echo-cancel.toml").path) {
                return candidate.path
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path || current.path == "/" { return nil }
            current = parent
        }
    }

    /// The running executable with symlinks resolved (a `/usr/local/bin/voicerack` symlink into an
    /// install tree must find that tree's `share/`).
    private static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    }
}
