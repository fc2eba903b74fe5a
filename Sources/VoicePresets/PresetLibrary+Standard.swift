import Foundation
import VoiceEngine

extension PresetLibrary {
    /// The library the CLI and host use: user presets first, then the shipped ones.
    ///
    /// Order: `$VOICERACK_PRESETS` (colon-separated), `$XDG_CONFIG_HOME/voicerack/presets` (or
    /// `~/.config/voicerack/presets`), `<executable dir>/../share/voicerack/presets` (an installed
    /// tree), then the first `presets/` folder holding `echo-cancel.toml` found walking up from the
    /// executable's directory (so `.build/debug/voicerack` finds the repository's presets).
    /// Directories that do not exist are kept; they simply contribute no presets.
    ///
    /// `pluginHost` checks the LV2 units presets name (nil: a preset with one is refused).
    ///
    /// - Realtime: never.
    public static func standard(pluginHost: (any PluginHost)?) -> PresetLibrary {
        PresetLibrary(directories: standardSearchPath().map(\.path), pluginHost: pluginHost)
    }

    /// `standard()`'s directories in search order, each with where it comes from (what
    /// `presets list` shows beside each preset, and where it says it looked when it finds none).
    ///
    /// - Realtime: never.
    public static func standardSearchPath() -> [PresetDirectory] {
        standardSearchPath(
            environment: ProcessInfo.processInfo.environment,
            home: FileManager.default.homeDirectoryForCurrentUser.path,
            executable: executablePath())
    }

    /// `standard()`'s search path, computed from explicit inputs so tests can drive it.
    static func standardDirectories(environment: [String: String], home: String, executable: String?) -> [String] {
        standardSearchPath(environment: environment, home: home, executable: executable).map(\.path)
    }

    /// `standardSearchPath()` from explicit inputs.
    static func standardSearchPath(
        environment: [String: String], home: String, executable: String?
    ) -> [PresetDirectory] {
        var directories: [PresetDirectory] = []
        if let list = environment["VOICERACK_PRESETS"] {
            directories += list.split(separator: ":").map { PresetDirectory(path: String($0), origin: .environment) }
        }
        // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directories.append(PresetDirectory(path: config + "/voicerack/presets", origin: .user))
        } else {
            directories.append(
                PresetDirectory(path: (environment["HOME"] ?? home) + "/.config/voicerack/presets", origin: .user))
        }
        if let executable {
            // An installed tree: <prefix>/bin/voicerack finds <prefix>/share/voicerack/presets.
            let binDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            let installed = binDirectory.appendingPathComponent("../share/voicerack/presets").standardized.path
            directories.append(PresetDirectory(path: installed, origin: .shipped))
            if let repository = shippedPresetsAbove(binDirectory) {
                directories.append(PresetDirectory(path: repository, origin: .shipped))
            }
        }
        // Keep the first occurrence of each directory: order is the precedence.
        var seen = Set<String>()
        return directories.filter { seen.insert(URL(fileURLWithPath: $0.path).standardized.path).inserted }
    }

    /// The first `presets/` directory containing `echo-cancel.toml` at or above `directory`.
    static func shippedPresetsAbove(_ directory: URL) -> String? {
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

/// One folder of the standard preset search path and where it comes from.
public struct PresetDirectory: Sendable, Equatable {
    /// Where a preset folder comes from, in the words `presets list` uses.
    public enum Origin: String, Sendable {
        /// A folder named in `$VOICERACK_PRESETS`.
        case environment = "$VOICERACK_PRESETS"
        /// The user's folder, `$XDG_CONFIG_HOME/voicerack/presets` or `~/.config/voicerack/presets`.
        case user = "user folder"
        /// The presets shipped with voicerack (installed under share/, or the repository's).
        case shipped = "shipped"
    }

    public let path: String
    public let origin: Origin

    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// The origin of the folder holding `file` (a preset's path) in `searchPath`, if any.
    public static func origin(of file: String, in searchPath: [PresetDirectory]) -> Origin? {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardized.path
        return searchPath.first { URL(fileURLWithPath: $0.path).standardized.path == folder }?.origin
    }
}
