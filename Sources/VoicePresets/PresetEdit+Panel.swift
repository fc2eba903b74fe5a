import Foundation
import Glibc
import VoiceControl
import VoiceEngine

extension PresetEdit {
    /// The keys a running engine cannot take live (a change needs a restart), for surfaces that
    /// show them as such.
    ///
    /// Asked of the engine's own rule (`EngineConfiguration.liveUpdate`): each key is moved to
    /// another allowed value and the update is checked for a restart, so a key counts as live
    /// here the day the engine takes it live. Text and list keys (the chain's order, files)
    /// always need a restart. - Realtime: never.
    public static func restartKeys(_ configuration: EngineConfiguration = EngineConfiguration()) -> Set<String> {
        Set(
            PresetSchema.keys.filter { key in
                var moved = configuration
                switch key.kind {
                case .number(let field, let range, _):
                    let top = Float(range.upperBound)
                    moved[keyPath: field] = configuration[keyPath: field] == top ? Float(range.lowerBound) : top
                case .boolean(let field):
                    moved[keyPath: field].toggle()
                case .choice(let choices, let get, let set):
                    if let other = choices.first(where: { $0 != get(configuration) }) { set(&moved, other) }
                case .text, .list:
                    return true
                }
                return moved == configuration || configuration.liveUpdate(to: moved).needsRestart
            }.map(\.fullName))
    }

    /// Writes the setup `keys` describe (every key with its running value, as `show` answers) as
    /// the preset `name` in `folder`: `NAME.toml`, never over an existing file or through a link,
    /// then reads it back. Only a bare name (letters, digits, `-`, `_`) is taken, so nothing can
    /// be written outside `folder`. - Realtime: never (file I/O).
    public static func save(
        _ keys: [LiveKey], as name: String, in folder: String, description: String
    ) -> LiveReply {
        let bare =
            (1...64).contains(name.utf8.count) && !name.hasPrefix("-")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
        guard bare else { return .failure("'\(name)' is not a preset name: use letters, digits, - and _") }
        var configuration = EngineConfiguration()
        do {
            for key in keys { configuration = try setting(key.key, key.value, in: configuration) }
        } catch {
            return .failure("cannot save: \(error.message)")
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name + ".toml"
        let text = PresetRenderer.toml(
            Preset(
                name: name, description: description, source: "the web panel", base: nil, configuration: configuration))
        // O_EXCL | O_NOFOLLOW: an existing file, or a link of that name, is never written through.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            return .failure(
                "cannot save \(path): "
                    + (errno == EEXIST ? "it exists; choose another name" : String(cString: strerror(errno))))
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else {
            unlink(path)
            return .failure("cannot save \(path): short write")
        }
        do {
            _ = try PresetLibrary(directories: [folder]).check(path)
        } catch {
            return .failure("saved \(path), but it does not read back: \(error)")
        }
        return LiveReply(lines: ["saved the running setup as preset '\(name)' (\(path))"])
    }
}
