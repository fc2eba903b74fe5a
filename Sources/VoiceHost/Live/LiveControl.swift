import Foundation
import VoiceControl
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceSession

/// The engine's share of live control: `set`, `get`, `show`, `load`, monitor unmute, voice mute
/// and the stream, for every surface (`--control` text, OSC, the web panel), and preset reloads
/// (SIGHUP).
///
/// A `set` of one parameter (a unit's, an LV2 unit's control, an engine control) goes to the
/// engine as that parameter's typed change alone (`CycleHost.setLive`) and glides in; a reload
/// or a switch sends the messages of the whole change (`CycleHost.applyLive`). A reload with a different chain (units, order,
/// LV2 plugins or states) builds a new engine off the process thread and swaps it in. Other keys
/// that shape the engine (frame, canceller tail, delay handling, speexdsp settings, the
/// high-pass, monitor on/off and source, ducking times) are reported as needing a restart and
/// left as they are. A preset that does not load on reload is reported (file:line: key) and the
/// running setup stays.
///
/// - Realtime: never; main thread.
struct LiveControl {
    let host: CycleHost
    /// The session's settings as running: the backing track's level changes live, the rest is
    /// what the session started with (a change to it needs a restart).
    var session: SessionSettings
    /// The `--preset` argument (name or path), re-read on SIGHUP; `load` replaces it.
    var preset: String
    /// The playing backing track, whose level `backing.level_db` sets.
    let backing: BackingTrack?
    /// The recordings and the stream, which `stream start|stop` controls.
    let recorder: LiveRecorder
    let streaming: LiveStreaming?

    /// Every key as running: the engine's live configuration and the session's settings.
    var running: PresetSettings { PresetSettings(engine: host.liveConfiguration, session: session) }

    /// Runs the engine's commands; nil for the session's own (recording, backing, status, help).
    mutating func run(_ command: LiveCommand) -> LiveReply? {
        switch command {
        case .set(let key, let value):
            return set(key, value)
        case .get(let key):
            do {
                let found = try PresetEdit.liveKey(key, in: running, pluginHost: host.pluginHost)
                return LiveReply(lines: ["\(found.key) = \(found.value)   (\(found.allowed))"], keys: [found])
            } catch {
                return .failure("get: \(error.message)")
            }
        case .show:
            let settings = running
            return LiveReply(
                lines: PresetEdit.listing(settings, pluginHost: host.pluginHost), keys: PresetEdit.liveKeys(settings))
        case .unmuteMonitor:
            host.rearmFeedbackGuard()
            return LiveReply(lines: ["monitor unmuted; the feedback guard watches again"])
        case .stream(let on):
            return stream(on)
        case .muteVoice(let on):
            host.setVoiceMuted(on)
            return LiveReply(lines: [on ? "voice_out muted; talking into the mic is reported" : "voice_out open"])
        case .record, .recordTaps, .backing, .status, .help, .savePreset, .loadPreset:
            return nil
        }
    }

    private func stream(_ on: Bool) -> LiveReply {
        guard let streaming else { return .failure("no stream configured; start voicerack with --stream URL") }
        guard on else {
            return streaming.stop(host, recorder: recorder).map { LiveReply(lines: [$0]) } ?? .failure("not streaming")
        }
        do {
            return LiveReply(lines: [try streaming.start(host, recorder: recorder)])
        } catch {
            return .failure("stream: \(error.message)")
        }
    }

    /// `set KEY VALUE`.
    private mutating func set(_ key: String, _ value: LiveValue) -> LiveReply {
        let before = running
        let wanted: PresetSettings
        do {
            wanted = try PresetEdit.setting(key, value, in: before, pluginHost: host.pluginHost)
        } catch {
            return .failure("set: \(error.message)")
        }
        // After the key's own checks, so a misspelt key still gets its "did you mean".
        if let refusal = Self.notInChain(key, chain: before.engine.chain) { return .failure("set: " + refusal) }
        guard wanted != before else { return LiveReply(lines: ["\(key) is already \(value)"]) }
        if let (parameter, number) = PresetEdit.liveParameter(key, in: wanted) {
            // One parameter: its change alone goes to the engine, no configuration is compared.
            let result = host.setLive(parameter, to: number)
            if result.needsRestart { return Self.needsRestart(key, value) }
            if result.dropped > 0 { return .failure("\(key): the engine's message queue was full; try again") }
            return LiveReply(lines: ["\(key) = \(value)"])
        }
        if before.engine.chainDiffers(from: wanted.engine) {
            // chain.order: a new chain, built here and swapped in.
            do { try host.rebuildChain(for: wanted.engine) } catch { return .failure("set: \(error.description)") }
            return LiveReply(lines: ["\(key) = \(value) (chain rebuilt)"] + host.engineNotes)
        }
        let result = host.applyLive(wanted.engine)
        let sessionRestart = followSession(wanted.session)
        if result.needsRestart || sessionRestart { return Self.needsRestart(key, value) }
        if result.dropped > 0 { return .failure("\(key): the engine's message queue was full; try again") }
        return LiveReply(lines: ["\(key) = \(value)"])
    }

    private static func needsRestart(_ key: String, _ value: LiveValue) -> LiveReply {
        .failure("\(key) = \(value) needs a restart (it changes what the engine is built with); not applied")
    }

    /// `load NAME|FILE`: loads the preset and applies its live keys; it is then what SIGHUP
    /// re-reads. `remote`: the error names the file, line and key only (`withoutContents`).
    mutating func loadPreset(_ name: String, remote: Bool) -> LiveReply {
        let reply = load(name, saying: "loaded", remote: remote)
        if reply.succeeded { preset = name }
        return reply
    }

    /// `save FILE`: the running setup, live changes and each LV2 unit's state included, as a
    /// complete preset (every key, so it does not depend on the shipped presets), written
    /// atomically by `PresetFileWriter`, which replaces nothing but a preset.
    func save(to path: String) -> LiveReply {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let preset = Preset(
            name: name, description: "Saved by voicerack from \(preset) with its live changes.", source: preset,
            base: nil, settings: PresetSettings(engine: host.configurationToSave, session: session))
        do {
            try PresetFileWriter.write(PresetRenderer.toml(preset, pluginHost: host.pluginHost), to: path)
        } catch {
            return .failure("save: \(error.message)")
        }
        return LiveReply(lines: ["saved the running setup to \(path)"])
    }

    /// SIGHUP: re-reads the preset, sends every live change, reports what needs a restart, and
    /// unmutes the monitor if the feedback guard had muted it.
    mutating func reload() -> LiveReply { load(preset, saying: "SIGHUP: reloaded") }

    /// Loads `name` (a preset name or path) and applies its live keys; `saying` opens the lines.
    private mutating func load(_ name: String, saying: String, remote: Bool = false) -> LiveReply {
        let what = saying.hasPrefix("SIGHUP") ? "SIGHUP" : "load"
        let loaded: Preset
        do {
            loaded = try PresetLibrary.standard(pluginHost: host.pluginHost).load(name)
        } catch {
            return .failure("\(what): \(remote ? error.withoutContents : error.description); keeping the running setup")
        }
        let changed = PresetEdit.changedKeys(from: running, to: loaded.settings)
        host.rearmFeedbackGuard()
        guard !changed.isEmpty else { return LiveReply(lines: ["\(saying) \(loaded.source): no changes"]) }
        var rebuilt: [String] = []
        if host.liveConfiguration.chainDiffers(from: loaded.configuration) {
            // A new chain (units, order, LV2 plugins or states): built here and swapped in.
            do {
                try host.rebuildChain(for: loaded.configuration)
            } catch {
                return .failure("\(what): \(loaded.source): \(error.description); keeping the running setup")
            }
            rebuilt = ["chain rebuilt: \(loaded.configuration.chain.map(\.name).joined(separator: ", "))"]
            rebuilt += host.engineNotes
        }
        let result = host.applyLive(loaded.configuration)
        _ = followSession(loaded.session)
        if result.dropped > 0 {
            return .failure("\(what): the engine's message queue was full; nothing applied, try again")
        }
        let restart = PresetEdit.changedKeys(from: running, to: loaded.settings)
        let live = changed.filter { !restart.contains($0) }
        var lines = ["\(saying) \(loaded.source)"] + rebuilt
        if !live.isEmpty { lines.append("applied: " + live.joined(separator: ", ")) }
        if !restart.isEmpty { lines.append("needs a restart (ignored): " + restart.joined(separator: ", ")) }
        return LiveReply(lines: lines)
    }
}

extension LiveControl {
    /// Why `key` cannot be set live when it belongs to a built-in unit that is not in the chain
    /// (nothing would change what is heard, and a surface would show a value that does nothing);
    /// nil for every other key. A preset or `load` may still hold such a unit's values.
    static func notInChain(_ key: String, chain: [ChainUnit]) -> String? {
        let section = String(key.prefix { $0 != "." })
        guard let kind = EffectKind(rawValue: section), !chain.contains(.builtIn(kind)) else { return nil }
        let order = chain.isEmpty ? "empty" : chain.map(\.name).joined(separator: ", ")
        return "\(key): the \(section) unit is not in the chain (chain.order is \(order)); add it to chain.order first"
    }

    /// Takes the live part of `wanted` (the backing track's level, set on the track, where it
    /// glides over 20 ms); returns true when `wanted` changes more (a restart).
    mutating func followSession(_ wanted: SessionSettings) -> Bool {
        let change = session.liveChange(to: wanted)
        if let backing, change.reached.backingLevelDB != session.backingLevelDB {
            backing.setLevel(change.reached.backingLevelDB)
        }
        session = change.reached
        return change.needsRestart
    }
}

/// Lines from standard input, read by a thread of their own so the main loop never blocks on
/// them. - Realtime: never.
final class StandardInputLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var reachedEnd = false
    /// Standard input is a terminal: its end is Ctrl-D, a request to quit.
    let isTerminal = isatty(STDIN_FILENO) == 1

    init() {
        let thread = Thread { [self] in
            while let line = readLine() {
                lock.lock()
                lines.append(line)
                lock.unlock()
            }
            lock.lock()
            reachedEnd = true
            lock.unlock()
        }
        thread.name = "voicerack-control"
        thread.start()
    }

    /// True once standard input ended (Ctrl-D on a terminal, the end of a pipe) and every line
    /// read before was taken.
    var ended: Bool {
        lock.lock()
        defer { lock.unlock() }
        return reachedEnd && lines.isEmpty
    }

    /// The lines read since the last call.
    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let taken = lines
        lines = []
        return taken
    }
}
