import Foundation
import VoiceEngine

/// One preset file, parsed and checked against `PresetSchema`, before its base is resolved.
///
/// Every problem that can be found in the file alone (syntax, unknown sections and keys, types,
/// ranges) is reported here with the file and line, so resolution only has to deal with bases.
///
/// - Realtime: never (reads the file system).
struct PresetDefinition: Sendable {
    /// One validated `key = value`, kept in file order.
    struct Setting: Sendable {
        let key: PresetKey
        let value: PresetValue
        let line: Int
    }

    /// File name without `.toml`.
    let name: String
    /// The path as given or found.
    let path: String
    let description: String?
    /// Name of the preset this one extends, and the line of the `base` key.
    let base: (name: String, line: Int)?
    let settings: [Setting]
    /// Sections that run an LV2 plugin (`lv2 = "URI"`), in file order.
    let plugins: [PluginSection]

    /// Reads and validates the file at `path`; `pluginHost` checks its LV2 units.
    static func read(path: String, pluginHost: (any PluginHost)?) throws(PresetError) -> PresetDefinition {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PresetError(file: path, message: "no such preset file")
        }
        guard !isDirectory.boolValue else {
            throw PresetError(file: path, message: "is a directory, not a preset file")
        }
        // A device, FIFO or socket is no preset whatever its permissions (and a FIFO could
        // block the read): say what it is before reading.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw PresetError(
                file: path, message: "is not a regular file (a device, FIFO or socket); a preset is a TOML file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PresetError(file: path, message: "cannot read the file (permissions?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PresetError(file: path, message: "is not UTF-8 text")
        }
        return try PresetDefinition(path: path, text: text, pluginHost: pluginHost)
    }

    /// Parses and validates `text` as the contents of `path`; `pluginHost` checks its LV2 units.
    init(path: String, text: String, pluginHost: (any PluginHost)?) throws(PresetError) {
        self.path = path
        name = PresetDefinition.name(ofPath: path)
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw PresetError(file: path, line: error.line, key: error.key, message: error.message)
        }

        var description: String?
        var base: (name: String, line: Int)?
        for entry in document.root {
            switch entry.key {
            case "description":
                guard case .string(let text) = entry.value.kind else {
                    throw PresetError(
                        file: path, line: entry.line, key: "description",
                        message: "description must be a string, not \(entry.value.text)")
                }
                description = text
            case "base":
                guard case .string(let text) = entry.value.kind, !text.isEmpty, !text.contains("/") else {
                    throw PresetError(
                        file: path, line: entry.line, key: "base",
                        message:
                            "base must be the name of a preset in quotes (like \"echo-cancel\"), not \(entry.value.text)"
                    )
                }
                base = (text, entry.line)
            default:
                throw Self.unknownTopLevelKey(entry, file: path)
            }
        }
        self.description = description
        self.base = base

        var settings: [Setting] = []
        var plugins: [PluginSection] = []
        for section in document.sections {
            let builtIn = PresetSchema.sections.contains(where: { $0.name == section.name })
            if PluginSection.declaresPlugin(section) {
                guard !builtIn else {
                    throw PresetError(
                        file: path, line: section.line, key: section.name,
                        message:
                            "[\(section.name)] is a built-in section; give the LV2 unit a name of its own, e.g. [\(section.name)_lv2]"
                    )
                }
                plugins.append(try PluginSection(section, file: path, pluginHost: pluginHost))
                continue
            }
            guard builtIn else {
                throw Self.unknownSection(section.name, line: section.line, file: path)
            }
            for entry in section.entries {
                guard let key = PresetSchema.key(section: section.name, name: entry.key) else {
                    throw Self.unknownKey(entry.key, section: section.name, line: entry.line, file: path)
                }
                settings.append(Setting(key: key, value: try key.validate(entry.value, file: path), line: entry.line))
            }
        }
        self.settings = settings
        self.plugins = plugins
    }

    /// The preset name a file stands for: its file name without `.toml`.
    static func name(ofPath path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        return file.hasSuffix(".toml") ? String(file.dropLast(5)) : file
    }

    /// Section `name` is none of the schema's, with the closest one or the list.
    static func unknownSection(_ name: String, line: Int?, file: String) -> PresetError {
        let names = PresetSchema.sections.map(\.name)
        let hint =
            Suggestion.closest(to: name, in: names).map { " (did you mean [\($0)]?)" }
            ?? "; allowed: " + names.map { "[\($0)]" }.joined(separator: ", ")
        return PresetError(file: file, line: line, key: name, message: "unknown section [\(name)]\(hint)")
    }

    /// `key` is no key of the schema's `section`, with the closest one or the list.
    static func unknownKey(_ key: String, section: String, line: Int?, file: String) -> PresetError {
        if section == "stream" && key == "password" {
            return PresetError(
                file: file, line: line, key: "stream.password",
                message:
                    "a preset never holds the password (presets are shared and printed); set stream.password_env (an environment variable) or stream.password_file (a private file) instead"
            )
        }
        let names = PresetSchema.keys(in: section).map(\.name)
        let hint =
            Suggestion.closest(to: key, in: names).map { " (did you mean '\($0)'?)" }
            ?? "; allowed in [\(section)]: " + names.joined(separator: ", ")
        return PresetError(
            file: file, line: line, key: "\(section).\(key)", message: "unknown key '\(section).\(key)'\(hint)")
    }

    /// Unknown top-level key; a section key written above every header gets pointed to its section.
    private static func unknownTopLevelKey(_ entry: TOMLEntry, file: String) -> PresetError {
        let hint: String
        if let home = PresetSchema.keys.first(where: { $0.name == entry.key }) {
            hint = " (it belongs under [\(home.section)])"
        } else if let close = Suggestion.closest(to: entry.key, in: PresetSchema.topLevelKeys) {
            hint = " (did you mean '\(close)'?)"
        } else {
            hint = "; allowed at the top: description, base, then [section] headers"
        }
        return PresetError(file: file, line: entry.line, key: entry.key, message: "unknown key '\(entry.key)'\(hint)")
    }
}
