import Foundation
import VoiceCycle
import VoiceFiles
import VoiceLoudness
import VoiceRecorder

/// The live client's recordings: checks and opens the files, hands their inputs to the process
/// thread (`CycleHost.route`), finalises them and reports what was written.
///
/// Start and stop may repeat (SIGUSR1); every start expands the templates again, so `{time}`
/// names new files.
///
/// - Realtime: never; main thread only.
final class LiveRecorder {
    /// A recording in progress.
    private struct Active {
        let tap: Tap
        let recording: Recording
        /// Its write error was already logged.
        var errorReported = false
    }

    private let options: LiveRecordingOptions
    private var active: [Active] = []
    /// Takes started so far (`{n}` of the next one is this + 1).
    private var takes = 0
    /// Every path a take of this run wrote: never written again, even with --force.
    private var written: Set<String> = []
    /// A line per finished file, for the exit summary.
    private(set) var finishedLines: [String] = []

    /// Routes fed beside the recordings (the Icecast stream's input); every route change keeps
    /// them. Change with `reroute`.
    private(set) var extraRoutes: [TapRoute] = []

    /// The loudness meter on voice_out: its input is fed in every route set beside the
    /// recordings and the stream; each take starts its integrated loudness again and ends with
    /// its figures. Set before the first route.
    var loudness: LiveLoudnessMeter?
    private var meterRoutes: [TapRoute] { loudness.map { [$0.route] } ?? [] }

    /// Give every file a BWF time reference (the transport frame of its first sample, stamped by
    /// the process thread) where the container has one: set for gated takes.
    var stampsTimeReference = false

    init(_ options: LiveRecordingOptions) { self.options = options }

    /// Feeds `extra` beside the open recordings from the next cycle on; false when the process
    /// thread kept the old set (stuck), which changes nothing.
    func reroute(_ host: CycleHost, extra: [TapRoute]) -> Bool {
        guard host.route(active.map { TapRoute(tap: $0.tap, input: $0.recording.input) } + extra + meterRoutes) else {
            return false
        }
        extraRoutes = extra
        return true
    }

    /// True while recordings are open.
    var isRecording: Bool { !active.isEmpty }

    /// True when `--record` asked to record from the start.
    var recordsFromStart: Bool { !options.targets.isEmpty }

    /// Refuses bad requests before the client exists (so before any port is registered): format
    /// and channel combinations (64) at 48 kHz, the server's rate being unknown yet, and paths
    /// that cannot be created or exist (73). The real rate is checked again at `start`.
    func check(client: String) throws(HostError) {
        guard !options.targets.isEmpty else {
            // Only --format can be wrong before SIGUSR1: check it against the voice tap.
            if let format = options.format {
                try Self.validate(format, tap: .voice, path: "(SIGUSR1)", sampleRate: 48_000)
            }
            return
        }
        _ = try plan(client: client, sampleRate: 48_000, date: Date())
    }

    /// Opens every file and makes the process thread feed them; returns a log line per file.
    /// `take` above 1 (the takes after a server restart, `--wait-for-server`) adds `-take2`, … to
    /// each name before its extension, so the files' order is clear whatever the template.
    /// `taps` records only those (each to its `--record` file, else the default name).
    func start(_ host: CycleHost, client: String, take: Int = 1, taps: [Tap]? = nil) throws(HostError) -> [String] {
        guard active.isEmpty else { return [] }
        let planned = try plan(
            client: client, sampleRate: host.sampleRate, date: Date(), take: take,
            targets: taps.map { options.targets(for: $0) } ?? options.effectiveTargets)
        var made: [Active] = []
        for (tap, spec, _) in planned {
            do {
                made.append(Active(tap: tap, recording: try Recording(spec: spec)))
            } catch {
                Self.discard(made)
                throw HostError(.cannotCreate, error.description)
            }
        }
        guard host.route(made.map { TapRoute(tap: $0.tap, input: $0.recording.input) } + extraRoutes + meterRoutes)
        else {
            Self.discard(made)
            throw HostError(.io, "the process thread did not take the new recordings (is it stuck?); not recording")
        }
        active = made
        loudness?.meter.startTake()
        takes += 1
        written.formUnion(made.map(\.recording.spec.path))
        return zip(made, planned).map { a, p in
            "recording \(a.tap.rawValue) to \(a.recording.spec.path) (\(a.recording.spec.format), \(a.tap.channels) ch)"
                + (p.2.map { "; \($0) was written earlier in this run; this take is \(a.recording.spec.path)" } ?? "")
        }
    }

    /// Finalises every open recording and returns a line per file. First takes the recordings
    /// away from the process thread; when it does not let go (stuck for two seconds), they stay
    /// open unless `force`, which the caller gives once no process thread can run any more.
    ///
    /// `discardingEmpty` removes the files of recordings that never got a frame (a gated take
    /// whose gate never opened) instead of leaving empty files.
    func stop(detachingFrom host: CycleHost, force: Bool = false, discardingEmpty: Bool = false) -> [String] {
        guard !active.isEmpty else { return [] }
        if !host.route(extraRoutes + meterRoutes), !force {
            return ["could not take the recordings from the process thread (is it stuck?); they are finalised at exit"]
        }
        if discardingEmpty, active.allSatisfy({ $0.recording.status.framesCaptured == 0 }) {
            Self.discard(active)
            let lines = active.map { "no \($0.tap.rawValue) take recorded: \($0.recording.spec.path) removed" }
            active = []
            return lines
        }
        // Finish all first, so their writers flush in parallel, then wait for each.
        for a in active { a.recording.finishProducer() }
        var lines = active.map { a in RecordingText.summary(a.tap, a.recording, a.recording.waitUntilFinished()) }
        if let loudness { lines.append(LiveLoudnessMeter.takeLine(loudness.figures)) }
        finishedLines += lines
        active = []
        return lines
    }

    /// Log lines for recordings a write error stopped since the last call (processing goes on).
    func newProblems() -> [String] {
        var lines: [String] = []
        for i in active.indices where !active[i].errorReported {
            guard let error = active[i].recording.error else { continue }
            active[i].errorReported = true
            lines.append("\(active[i].tap.rawValue) recording stopped: \(error.description); processing continues")
        }
        return lines
    }

    /// The files being written now (the first file of each; rotation may add more).
    var paths: [String] { active.map(\.recording.spec.path) }

    /// Running recordings that stopped on an error (the terminal status shows them).
    var failedFiles: Int { active.filter { $0.recording.status.failed }.count }
    /// Frames the running recordings lost to a slow disk or a gap in time (written as silence).
    var framesLost: Int { active.reduce(0) { $0 + $1.recording.status.framesLost } }
    /// Of `framesLost`, the frames no cycle ran for (xruns); the rest the disk did not take.
    var framesNotRun: Int { active.reduce(0) { $0 + $1.recording.status.framesNotRun } }

    /// The status-line part, e.g. `rec 2 files, disk lost 0, not run 0` (frames the disk did
    /// not take in time; frames no cycle ran for, xruns); nil when not recording.
    var statusText: String? {
        guard !active.isEmpty else { return nil }
        let statuses = active.map(\.recording.status)
        let failed = statuses.filter(\.failed).count
        let notRun = statuses.reduce(0) { $0 + $1.framesNotRun }
        let disk = statuses.reduce(0) { $0 + $1.framesLost } - notRun
        return "rec \(active.count - failed) file\(active.count - failed == 1 ? "" : "s")"
            + (failed > 0 ? " (\(failed) failed)" : "") + ", disk lost \(disk), not run \(notRun)"
    }

    /// Each target's path and spec for `client` at `date`, checked (format, path, duplicates),
    /// with the name the template gave when a take of this run had written it already (the
    /// path then carries a `-2`, `-3` ... suffix). `take` above 1 (after a server restart) adds
    /// `-take2`, ... before the extension.
    private func plan(
        client: String, sampleRate: Int, date: Date, take: Int = 1, targets: [LiveRecordingOptions.Target]? = nil
    ) throws(HostError) -> [(Tap, RecordingSpec, String?)] {
        let targets = targets ?? options.effectiveTargets
        guard targets.count <= CycleHost.maximumRecordings else {
            throw HostError(
                .usage, "--record: at most \(CycleHost.maximumRecordings) recordings at once (\(targets.count) given)")
        }
        var planned: [(Tap, RecordingSpec, String?)] = []
        for target in targets {
            let template = RecordingName.expand(
                target.template, client: client, tap: target.tap.rawValue, date: date, take: takes + 1)
            let numbered = take > 1 ? Self.numbered(template, take: take) : template
            // A session manager's recordings folder takes the relative names.
            let expanded = options.folder.map { numbered.hasPrefix("/") ? numbered : $0 + "/" + numbered } ?? numbered
            let path = RecordingName.unused(expanded, taken: written)
            guard let chosen = options.format ?? AudioFormat.forPath(path) else {
                throw HostError(
                    .usage,
                    "--record \(target.tap.rawValue)=\(path): cannot tell the format from the extension; use .wav, .flac, .w64, .rf64, .caf, .aiff, .ogg, .opus or .mp3, or give --format"
                )
            }
            let format = chosen.suited(toChannels: target.tap.channels)
            try Self.validate(format, tap: target.tap, path: path, sampleRate: sampleRate)
            if planned.contains(where: { $0.1.path == path }) {
                throw HostError(
                    .usage, "--record: two recordings would write \(path); give each tap its own file (e.g. with {tap})"
                )
            }
            try OfflineProcessor.checkOutputPath(path, force: options.force)
            var spec = RecordingSpec(path: path, format: format, sampleRate: sampleRate, channels: target.tap.channels)
            spec.bufferSeconds = options.bufferSeconds
            spec.timeReference = stampsTimeReference
            planned.append((target.tap, spec, path == expanded ? nil : expanded))
        }
        return planned
    }

    /// `path` with `-takeN` before its extension: `voice.wav` → `voice-take2.wav`.
    static func numbered(_ path: String, take: Int) -> String {
        let ext = URL(fileURLWithPath: path).pathExtension
        let stem = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
        return stem + "-take\(take)" + (ext.isEmpty ? "" : "." + ext)
    }

    /// Throws a usage error listing the possible encodings when `format` cannot hold `tap`.
    private static func validate(_ format: AudioFormat, tap: Tap, path: String, sampleRate: Int) throws(HostError) {
        do {
            try format.suited(toChannels: tap.channels).validate(channels: tap.channels, sampleRate: sampleRate)
        } catch {
            throw HostError(.usage, "--record \(tap.rawValue)=\(path): \(error.description)")
        }
    }

    /// Closes recordings that never got audio and removes their (empty) files.
    private static func discard(_ recordings: [Active]) {
        for a in recordings {
            a.recording.finishProducer()
            for file in a.recording.waitUntilFinished().files { unlink(file) }
        }
    }
}
