import Foundation
import VoiceEngine
import VoiceSession

/// Finds presets by name in an ordered list of directories and resolves them to configurations.
///
/// A name is the file name without `.toml`. Directories are searched in order and the first file
/// with a name wins, so user presets placed before the shipped ones shadow them. The library holds
/// no state besides its directories: every call reads the disk afresh, so edits show up at once.
///
/// - Realtime: never (file-system access).
public struct PresetLibrary: Sendable {
    /// Searched in order; a later directory never overrides a name found in an earlier one.
    public let directories: [String]
    /// What checks the LV2 units presets name (their controls' ranges, saved states); nil: a
    /// preset with one is refused, saying this program has no LV2 hosting.
    public let pluginHost: (any PluginHost)?

    public init(directories: [String], pluginHost: (any PluginHost)? = nil) {
        self.directories = directories
        self.pluginHost = pluginHost
    }

    /// All preset names across the directories, sorted and unique.
    public func names() -> [String] {
        var names = Set<String>()
        for directory in directories {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for file in files where file.hasSuffix(".toml") && !file.hasPrefix(".") {
                if isFile(directory + "/" + file) { names.insert(PresetDefinition.name(ofPath: file)) }
            }
        }
        return names.sorted()
    }

    /// Name, description and file of every preset, in name order. A preset that does not parse
    /// still appears, with the error as its description, so `presets list` shows what to fix.
    public func summaries() -> [(name: String, description: String, source: String)] {
        names().compactMap { name in
            guard let path = paths(named: name).first else { return nil }
            do {
                return (name, try PresetDefinition.read(path: path, pluginHost: pluginHost).description ?? "", path)
            } catch {
                return (name, "(invalid: \(error))", path)
            }
        }
    }

    /// Loads a preset by name, or by path when `nameOrPath` contains "/" or ends with `.toml`.
    public func load(_ nameOrPath: String) throws(PresetError) -> Preset {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") { return try check(nameOrPath) }
        guard let path = paths(named: nameOrPath).first else {
            throw PresetError(file: "", key: nil, message: "preset '\(nameOrPath)' not found; \(availability())")
        }
        return try check(path)
    }

    /// Validates the file at `path` and resolves it, its base found through this library.
    public func check(_ path: String) throws(PresetError) -> Preset {
        let definition = try PresetDefinition.read(path: path, pluginHost: pluginHost)
        let settings = try resolve(definition, chain: [])
        if let (key, message) = settings.session.streamProblem() {
            // The line that set the key, when this file set it (else a base did: the file alone).
            let line = definition.settings.last { $0.key.fullName == "stream.\(key)" }?.line
            throw PresetError(
                file: definition.path, line: line, key: "stream.\(key)", message: "stream.\(key): \(message)")
        }
        if let (key, message) = PresetSchema.pipeWireProblem(settings.session) {
            let line = definition.settings.last { $0.key.fullName == "pipewire.\(key)" }?.line
            throw PresetError(
                file: definition.path, line: line, key: "pipewire.\(key)", message: "pipewire.\(key): \(message)")
        }
        return Preset(
            name: definition.name, description: definition.description ?? "", source: definition.path,
            base: definition.base?.name, settings: settings)
    }

    /// Most bases one preset may stack (`base` of a `base` ...). Deeper chains are refused with
    /// the chain named: resolution recurses once per level and reads every file afresh, so a
    /// chain thousands deep would take seconds and, deeper still, overflow the stack.
    public static let maximumBaseDepth = 16

    /// `PresetSettings()` defaults, then the base chain outermost first, then `definition`'s keys.
    ///
    /// `chain` holds the presets that (transitively) extend `definition`. A base is looked up by
    /// name, skipping files already in the chain: that lets a user preset `echo-cancel` extend the
    /// shipped `echo-cancel` it shadows, and turns true cycles into a "base cycle" error.
    private func resolve(
        _ definition: PresetDefinition, chain: [PresetDefinition]
    ) throws(PresetError) -> PresetSettings {
        var settings = PresetSettings()
        if let base = definition.base {
            let chain = chain + [definition]
            guard chain.count <= Self.maximumBaseDepth else {
                let names = (chain.map(\.name) + [base.name]).joined(separator: " -> ")
                throw PresetError(
                    file: definition.path, line: base.line, key: "base",
                    message: "base chain deeper than \(Self.maximumBaseDepth) presets: \(names); flatten it")
            }
            let candidates = paths(named: base.name)
            let visited = Set(chain.map { Self.canonical($0.path) })
            guard !candidates.isEmpty else {
                throw PresetError(
                    file: definition.path, line: base.line, key: "base",
                    message: "base preset '\(base.name)' not found; \(availability(excluding: definition.name))")
            }
            guard let path = candidates.first(where: { !visited.contains(Self.canonical($0)) }) else {
                let names = (chain.map(\.name) + [base.name]).joined(separator: " -> ")
                throw PresetError(
                    file: definition.path, line: base.line, key: "base", message: "base cycle: \(names)")
            }
            settings = try resolve(PresetDefinition.read(path: path, pluginHost: pluginHost), chain: chain)
        }
        for plugin in definition.plugins { settings.engine.plugins[plugin.name] = plugin.settings }
        for setting in definition.settings {
            setting.key.apply(setting.value, to: &settings)
            if setting.key.fullName == PresetSchema.backingFile.fullName {
                settings.session.backingFile = PresetSchema.pathRelativeToPreset(
                    settings.session.backingFile, presetPath: definition.path)
            }
            if setting.key.fullName == "stream.password_file" {
                settings.session.streamPasswordFile = PresetSchema.pathRelativeToPreset(
                    (settings.session.streamPasswordFile as NSString).expandingTildeInPath, presetPath: definition.path)
            }
        }
        try checkChain(settings.engine, definition)
        let lufsLine = definition.settings.first { $0.key.fullName == PresetSchema.levellerTargetLUFS.fullName }?.line
        try PresetSchema.checkLoudnessTarget(settings, file: definition.path, line: lufsLine)
        return settings
    }

    /// Every plugin unit `chain.order` names has a section (here or in a base).
    private func checkChain(_ configuration: EngineConfiguration, _ definition: PresetDefinition) throws(PresetError) {
        let line = definition.settings.first { $0.key.fullName == PresetSchema.chainOrder.fullName }?.line
        try Self.checkChain(configuration, file: definition.path, line: line)
    }

    /// Every plugin unit `configuration.chain` names has a section; the error points at `file`
    /// and `line` (where `chain.order` was set). - Realtime: never.
    static func checkChain(_ configuration: EngineConfiguration, file: String, line: Int?) throws(PresetError) {
        for case .plugin(let name) in configuration.chain where configuration.plugins[name] == nil {
            let builtIn = EffectKind.allCases.map(\.rawValue)
            let hint =
                Suggestion.closest(to: name, in: builtIn + configuration.plugins.keys.sorted())
                .map { " (did you mean '\($0)'?)" } ?? ""
            throw PresetError(
                file: file, line: line, key: PresetSchema.chainOrder.fullName,
                message:
                    "chain.order: unknown unit '\(name)'\(hint); use a built-in unit (\(builtIn.joined(separator: ", "))) or an LV2 unit's section [\(name)] with lv2 = \"URI\""
            )
        }
    }

    /// Every file for `name`, in directory order (the first one is the preset `name` means).
    func paths(named name: String) -> [String] {
        directories.map { $0 + "/" + name + ".toml" }.filter(isFile)
    }

    /// "available: a, b, c", or where nothing was found, for not-found messages.
    private func availability(excluding excluded: String? = nil) -> String {
        let names = names().filter { $0 != excluded }
        if names.isEmpty {
            let searched = directories.isEmpty ? "(no directories)" : directories.joined(separator: ", ")
            return "no presets found in \(searched)"
        }
        return "available: " + names.joined(separator: ", ")
    }

    private func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Absolute, symlink-free form of `path`, so one file reached two ways counts once in a chain.
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

extension PresetLibrary {
    /// Whether the file at `path` is shaped as a voicerack preset: TOML whose top-level keys
    /// and sections are a preset's (values unchecked: a preset with a bad value is still one,
    /// and a save may repair it). What a save may replace. - Realtime: never.
    public static func isPresetFile(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
            let document = try? TOMLDocument(parsing: text)
        else { return false }
        return document.root.allSatisfy { ["description", "base"].contains($0.key) }
            && document.sections.allSatisfy { section in
                PresetSchema.sections.contains { $0.name == section.name } || PluginSection.declaresPlugin(section)
            }
    }
}
