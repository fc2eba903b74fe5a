import Foundation
import Synchronization
import VoiceControl

/// The panel's backend over the session's `ControlHub`: figures from its snapshot, controls from
/// `show`, requests as `LiveCommand`s (the same messages as `--control` and OSC), answered on the
/// main thread and handed back here.
///
/// - Realtime: never; the server's tasks.
final class HubBackend: PanelBackend {
    let hub: ControlHub
    /// Keys shown as needing a restart.
    let restartKeys: Set<String>
    /// The preset names the page may load.
    let presets: @Sendable () -> [String]
    /// The folder presets are saved into (nil: none).
    let presetFolder: @Sendable () -> String?
    private let preset: Mutex<String>
    private let lastKeys = Mutex<[LiveKey]>([])
    /// The far end has been active at least once in this session.
    private let farHeard = Mutex(false)

    init(
        hub: ControlHub, preset: String, restartKeys: Set<String>, presets: @escaping @Sendable () -> [String],
        presetFolder: @escaping @Sendable () -> String?
    ) {
        self.hub = hub
        self.preset = Mutex(preset)
        self.restartKeys = restartKeys
        self.presets = presets
        self.presetFolder = presetFolder
    }

    func watch() -> (any Sendable)? { hub.watchMeters() }

    /// The figures; once the far end has been heard, a silent far end reads "far end silent",
    /// not "no far end yet".
    func meters() -> PanelMeters {
        let snapshot = hub.snapshot()
        let heard = farHeard.withLock { heard in
            heard = heard || snapshot.farActive
            return heard
        }
        return Self.meters(snapshot, farHeard: heard)
    }

    /// The controls from `show`; when the session refused it (its budget spent by a flood),
    /// the last ones it gave, so the page keeps its controls.
    func setup() async -> PanelSetup {
        let shown = await run(.show, surface: "web page")
        let keys = shown.succeeded ? shown.keys : lastKeys.withLock { $0 }
        if shown.succeeded { lastKeys.withLock { $0 = keys } }
        return PanelRack.setup(keys, restartKeys: restartKeys, presets: presets(), preset: preset.withLock { $0 })
    }

    func perform(_ request: PanelRequest) async -> PanelReply {
        let reply: LiveReply
        switch request {
        case .set(let key, let value): reply = await run(.set(key: key, value: value))
        case .record(let on): reply = await run(.record(on))
        case .recordTaps(let taps): reply = await run(.recordTaps(taps))
        case .pauseBacking: reply = await run(.backing(.toggle))
        case .unmuteMonitor: reply = await run(.unmuteMonitor)
        case .muteVoice(let on): reply = await run(.muteVoice(on))
        case .stream(let on): reply = await run(.stream(on))
        case .loadPreset(let name):
            reply = await run(.loadPreset(name))
            if reply.succeeded { preset.withLock { $0 = name } }
        case .savePreset(let name):
            reply = await save(name)
        }
        return PanelReply(ok: reply.succeeded, lines: reply.lines)
    }

    /// Saves the running setup as `NAME.toml` in the preset folder, never over a file that exists.
    /// `name` is a bare name (`PanelRequest.isName`), checked again here: nothing outside the
    /// folder can be named.
    private func save(_ name: String) async -> LiveReply {
        guard PanelRequest.isName(name) else { return .failure("'\(name)' is not a preset name") }
        guard let folder = presetFolder() else { return .failure("no preset folder to save into") }
        let path = folder + "/" + name + ".toml"
        // lstat: a link of that name counts as existing too.
        var info = stat()
        guard lstat(path, &info) != 0 else { return .failure("\(path) exists; choose another name") }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failure("cannot make the preset folder \(folder): \(error.localizedDescription)")
        }
        return await run(.savePreset(path))
    }

    /// Submits `command` and waits for the main thread's reply. The page's requests spend the
    /// `web` budget; its own redraws (`setup`, at most one per figure beat) another, so a
    /// flood of requests never leaves the page without controls.
    private func run(_ command: LiveCommand, surface: String = "web") async -> LiveReply {
        await withCheckedContinuation { done in
            hub.submit(command, from: "web", surface: surface) { done.resume(returning: $0) }
        }
    }

    /// The page's figures from the session's snapshot (silence as -120 dBFS: JSON has no -inf).
    static func meters(_ s: LiveSnapshot, farHeard: Bool = false) -> PanelMeters {
        func db(_ value: Double) -> Double { value.isFinite ? max(-120, value) : -120 }
        var m = PanelMeters()
        m.time = s.time
        (m.micDB, m.micPeakDB) = (db(s.mic.level), db(s.mic.peak))
        (m.farDB, m.farPeakDB) = (db(s.far.level), db(s.far.peak))
        (m.voiceDB, m.voicePeakDB) = (db(s.voice.level), db(s.voice.peak))
        (m.monitorDB, m.monitorPeakDB) = (db(s.monitor.level), db(s.monitor.peak))
        m.units = s.units.map { PanelUnitMeter(unit: $0.unit, peakDB: db($0.peak), reductionDB: $0.reductionDB) }
        m.echoRemovalDB = s.echoRemovalDB.map { max(0, $0) }
        // The verdict rule every surface says (EchoVerdict): measuring until the far end played
        // alone; once it was heard, a silent far end reads "far end silent".
        m.echoVerdict = s.echoVerdict ?? EchoVerdict.waiting(farActive: s.farActive, farHeard: farHeard)
        m.delayMS = s.delayMilliseconds
        m.driftPPM = s.driftPPM
        m.voiceActive = s.voiceActive
        m.doubleTalk = s.doubleTalk
        m.levellerGainDB = s.levellerGainDB.isFinite ? s.levellerGainDB : -120
        m.shortTermLUFS = s.loudness?.shortTerm
        m.integratedLUFS = s.loudness?.integrated
        m.truePeakDBTP = s.loudness?.truePeak
        m.dspLoadPercent = s.dspLoadPercent
        m.xruns = s.xruns
        m.overruns = s.overruns
        m.framesNotRun = s.framesNotRun
        m.worstCyclePercent = s.worstCyclePercent
        m.monitorMuted = s.monitorMuted
        m.voiceMuted = s.voiceMuted
        if let recording = s.recording {
            m.recording = true
            m.recordingSeconds = recording.seconds
            m.recordingFiles = recording.files.map { URL(fileURLWithPath: $0).lastPathComponent }
            m.framesLost = recording.framesLost / max(1, recording.files.count)
        }
        m.backing = s.backingPlaying.map { $0 ? "playing" : "paused" }
        m.backingSeconds = s.backingSeconds
        if let stream = s.streamFigures {
            m.streamState = stream.state
            m.streamSecondsOnAir = stream.secondsOnAir
            m.streamSecondsLost = stream.secondsLost
            m.streamReconnects = stream.reconnects
            m.streamReason = stream.reason
        }
        return m
    }

}
