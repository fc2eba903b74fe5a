import Foundation
import VoiceCycle
import VoiceEngine
import VoicePresets

/// Live control of a running client: `set KEY VALUE` commands (`--control`, one per line on
/// standard input) and preset reloads (SIGHUP).
///
/// Changes go to the engine as typed parameter messages (`CycleHost.applyLive`) and glide in
/// (LV2 units' controls, `set eq.gain 6`, too). A reload with a different chain (units, order,
/// LV2 plugins or states) builds a new engine off the process thread and swaps it in. Other keys
/// that shape the engine (frame, canceller tail, delay handling, speexdsp settings, the
/// high-pass, monitor on/off and source, ducking times) are reported as needing a restart and
/// left as they are. A preset that does not load on reload is reported (file:line: key) and the
/// running setup stays.
///
/// - Realtime: never; main thread.
struct LiveControl {
    let host: CycleHost
    /// The `--preset` argument (name or path), re-read on SIGHUP.
    let preset: String
    /// The playing backing track, whose level `backing.level_db` sets.
    let backing: BackingTrack?
    /// The recordings and the stream, which `stream start|stop` controls.
    let recorder: LiveRecorder
    let streaming: LiveStreaming?

    static let help = [
        "commands (one per line):",
        "  set KEY VALUE   change a preset key while running, e.g. set compressor.threshold_dbfs -18,",
        "                  set monitor.master_db -6 (keys as in presets; see `voicerack presets show NAME`);",
        "                  an LV2 unit's control by port symbol: set eq.gain 6 (`voicerack plugins show URI`)",
        "  show            every key's running value and what it allows",
        "  unmute          unmute the monitor after the feedback guard muted it (also on SIGHUP)",
        "  record          start recording (the --record files, else the voice; as SIGUSR1)",
        "  stop            stop recording and finalise the files",
        "  pause           pause or resume the backing track (as SIGUSR2)",
        "  status          the status with every number (levels, delay, ERLE, load, recording)",
        "  stream start|stop  start or stop the Icecast stream (--stream); recording goes on",
        "  mute on|off     mute voice_out (20 ms glide; the recordings of the voice too); while muted,",
        "                  talking into the mic is reported",
        "  help            this list",
    ]

    /// Runs one command line; returns what to print, with the line's own text escaped
    /// (`ControlText`): a control character typed or piped in is shown, never obeyed.
    func handle(_ line: String) -> [String] { respond(to: line).map(ControlText.escaped) }

    private func respond(to line: String) -> [String] {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first else { return [] }
        switch command {
        case "set":
            guard words.count >= 3 else { return ["usage: set KEY VALUE (e.g. set monitor.master_db -6)"] }
            return set(words[1], words.dropFirst(2).joined(separator: " "))
        case "show":
            return PresetEdit.listing(host.liveConfiguration)
        case "unmute":
            host.rearmFeedbackGuard()
            return ["monitor unmuted; the feedback guard watches again"]
        case "stream":
            guard let streaming else { return ["no stream configured; start voicerack with --stream URL"] }
            switch words.dropFirst().first {
            case "start":
                do { return [try streaming.start(host, recorder: recorder)] } catch {
                    return ["stream: \(error.message)"]
                }
            case "stop":
                return [streaming.stop(host, recorder: recorder) ?? "not streaming"]
            default:
                return ["usage: stream start|stop"]
            }
        case "mute":
            guard words.count == 2, let on = ["on": true, "off": false][words[1]] else {
                return ["usage: mute on|off"]
            }
            host.setVoiceMuted(on)
            return [on ? "voice_out muted; talking into the mic is reported" : "voice_out open"]
        case "help":
            return Self.help
        default:
            return ["unknown command '\(command)'; try help"]
        }
    }

    /// `set KEY VALUE`.
    private func set(_ key: String, _ value: String) -> [String] {
        let running = host.liveConfiguration
        let wanted: EngineConfiguration
        do {
            wanted = try PresetEdit.setting(key, value, in: running)
        } catch {
            return ["set: \(error.message)"]
        }
        guard wanted != running else { return ["\(key) is already \(value)"] }
        if running.chainDiffers(from: wanted) {
            // chain.order: a new chain, built here and swapped in.
            do { try host.rebuildChain(for: wanted) } catch { return ["set: \(error.description)"] }
            return ["\(key) = \(value) (chain rebuilt)"] + host.engineNotes
        }
        let result = host.applyLive(wanted)
        followBackingLevel(from: running, to: result.reached)
        if result.needsRestart {
            return ["\(key) = \(value) needs a restart (it changes what the engine is built with); not applied"]
        }
        if result.dropped > 0 { return ["\(key): the engine's message queue was full; try again"] }
        return ["\(key) = \(value)"]
    }

    /// SIGHUP: re-reads the preset, sends every live change, reports what needs a restart, and
    /// unmutes the monitor if the feedback guard had muted it.
    func reload() -> [String] { reloaded().map(ControlText.escaped) }

    private func reloaded() -> [String] {
        let loaded: Preset
        do {
            loaded = try PresetLibrary.standard().load(preset)
        } catch {
            return ["SIGHUP: \(error); keeping the running setup"]
        }
        var running = host.liveConfiguration
        let changed = PresetEdit.changedKeys(from: running, to: loaded.configuration)
        host.rearmFeedbackGuard()
        guard !changed.isEmpty else { return ["SIGHUP: reloaded \(loaded.source): no changes"] }
        var rebuilt: [String] = []
        if running.chainDiffers(from: loaded.configuration) {
            // A new chain (units, order, LV2 plugins or states): built here and swapped in.
            do {
                try host.rebuildChain(for: loaded.configuration)
            } catch {
                return ["SIGHUP: \(loaded.source): \(error.description); keeping the running setup"]
            }
            rebuilt = ["chain rebuilt: \(loaded.configuration.chain.map(\.name).joined(separator: ", "))"]
            rebuilt += host.engineNotes
            running = host.liveConfiguration
        }
        let result = host.applyLive(loaded.configuration)
        followBackingLevel(from: running, to: result.reached)
        if result.dropped > 0 {
            return ["SIGHUP: the engine's message queue was full; nothing applied, send SIGHUP again"]
        }
        let restart = PresetEdit.changedKeys(from: result.reached, to: loaded.configuration)
        let live = changed.filter { !restart.contains($0) }
        var lines = ["SIGHUP: reloaded \(loaded.source)"] + rebuilt
        if !live.isEmpty { lines.append("applied: " + live.joined(separator: ", ")) }
        if !restart.isEmpty { lines.append("needs a restart (ignored): " + restart.joined(separator: ", ")) }
        return lines
    }
}

extension LiveControl {
    /// Sets the track's level when a live change moved `backing.level_db` (it glides over 20 ms).
    func followBackingLevel(from running: EngineConfiguration, to reached: EngineConfiguration) {
        guard let backing, reached.backingLevelDB != running.backingLevelDB else { return }
        backing.setLevel(reached.backingLevelDB)
    }
}

/// Lines from standard input, read by a thread of their own so the main loop never blocks on
/// them. - Realtime: never.
final class StandardInputLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    init() {
        let thread = Thread { [self] in
            while let line = readLine() {
                lock.lock()
                lines.append(line)
                lock.unlock()
            }
        }
        thread.name = "voicerack-control"
        thread.start()
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
