import Foundation
import Glibc
import VoiceControl
import VoicePresets

/// Which preset files a remote control surface (OSC, the web panel, NSM) may read and write.
///
/// Remote surfaces address presets by name: `load NAME` finds `NAME.toml` in the preset
/// folders in search order, `save NAME` writes `NAME.toml` into the first writable one. A path
/// is taken only when it names a `.toml` file whose real location (symlinks resolved) is inside
/// one of the folders: the standard search path (`$VOICERACK_PRESETS`, the user's folder, the
/// shipped presets, which are read-only here) and the folder of a `--preset FILE` given on the
/// command line (under NSM, the session's folder). Anything else is refused with the reason, so
/// a sender cannot read `/etc/passwd` or write `~/.bashrc`.
///
/// - Realtime: never; main thread (file-system access).
struct PresetAccess: Sendable {
    /// Folders presets are read from, in search order.
    let readable: [String]
    /// Folders presets may be written into; `save NAME` writes into the first.
    let writable: [String]

    init(readable: [String], writable: [String]) {
        self.readable = readable
        self.writable = writable
    }

    /// The standard search path plus the folder of `presetArgument` when it is a file.
    init(searchPath: [PresetDirectory], presetArgument: String?) {
        var readable = searchPath.map(\.path)
        var writable = searchPath.filter { $0.origin != .shipped }.map(\.path)
        if let file = presetArgument, Self.isPath(file) {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            readable.append(folder)
            writable.append(folder)
        }
        self.init(readable: readable, writable: writable)
    }

    /// Why a request was refused, in words for the sender.
    struct Refusal: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The file `load REQUEST` reads: a name found in the folders, or a path inside them.
    func fileToLoad(_ request: String) throws(Refusal) -> String {
        if PresetName.isValid(request) {
            for folder in readable {
                let candidate = folder + "/" + request + ".toml"
                var info = stat()
                if lstat(candidate, &info) == 0 { return try inside(readable, candidate, reading: true) }
            }
            throw Refusal("preset '\(request)' not found in the preset folders (\(listed(readable)))")
        }
        guard Self.isPath(request) else { throw notAName(request) }
        let file = try inside(readable, request, reading: true)
        guard request.hasSuffix(".toml") else { throw Refusal("\(request) is not a preset file (NAME.toml)") }
        return file
    }

    /// The file `save REQUEST` writes: `NAME.toml` in the first writable folder (made when
    /// missing), or a `.toml` path inside a writable folder.
    func fileToSave(_ request: String) throws(Refusal) -> String {
        if PresetName.isValid(request) {
            guard let folder = writable.first else { throw Refusal("no preset folder to save into") }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Refusal("cannot make the preset folder \(folder): \(error.localizedDescription)")
            }
            return try inside(writable, folder + "/" + request + ".toml", reading: false)
        }
        guard Self.isPath(request) else { throw notAName(request) }
        let file = try inside(writable, request, reading: false)
        guard request.hasSuffix(".toml") else { throw Refusal("\(request) is not a preset file (NAME.toml)") }
        return file
    }

    /// `path` when its real location is inside one of `folders`; a file to read must exist and
    /// be a regular file, a file to write must sit in a folder that does (the writer checks the
    /// file itself).
    private func inside(_ folders: [String], _ path: String, reading: Bool) throws(Refusal) -> String {
        let real: String?
        if reading {
            real = Self.realPath(path)
        } else {
            // The file may not exist yet: resolve its folder, keep its own name (the writer
            // refuses a symlink there).
            let url = URL(fileURLWithPath: path)
            real = Self.realPath(url.deletingLastPathComponent().path).map { $0 + "/" + url.lastPathComponent }
        }
        let roots = folders.compactMap(Self.realPath)
        guard let real, roots.contains(where: { real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            let verb = reading ? "loads" : "saves"
            throw Refusal(
                "\(path) is outside the preset folders (\(listed(folders))); a remote surface \(verb) presets by name")
        }
        if reading {
            var info = stat()
            guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw Refusal("\(path) is not a regular file")
            }
        }
        return real
    }

    private func notAName(_ request: String) -> Refusal {
        Refusal(
            "'\(request)' is not a preset name: use 1 to 64 letters, digits, - and _ (or a .toml file in a preset folder)"
        )
    }

    private func listed(_ folders: [String]) -> String {
        folders.isEmpty ? "none" : folders.joined(separator: ", ")
    }

    /// Whether a preset argument names a file rather than a preset (as `PresetLibrary.load` reads it).
    static func isPath(_ text: String) -> Bool { text.contains("/") || text.hasSuffix(".toml") }

    /// `realpath(3)`: absolute, symlinks resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
