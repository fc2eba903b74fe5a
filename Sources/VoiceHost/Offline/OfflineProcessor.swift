import Foundation
import VoiceCycle
import VoiceEngine
import VoiceFiles
import VoiceRT
import VoiceRecorder
import VoiceStream

/// What to process offline and where to put it.
public struct OfflineRequest: Sendable {
    public var micPath: String
    public var referencePath: String?
    public var outputPath: String
    /// Host block size in samples: the render cycle runs with exactly the blocks JACK would use.
    public var blockSize = 256
    /// Output format; nil picks it from the output's extension (WAV float by default).
    public var format: AudioFormat?
    /// Replace an existing output file.
    public var force = false
    /// Pad or cut a reference whose length differs from the mic's instead of refusing.
    public var allowLengthMismatch = false
    /// Extra recordings of taps (mic, reference, tuning, voice, karaoke), each to its own file.
    public var taps: [(tap: Tap, path: String)] = []
    /// A backing track played on the speakers while MIC was recorded: mixed into the reference
    /// (which may then be absent) and into the karaoke tap. nil: the preset's `backing.file`.
    public var backingPath: String?
    /// Send a tap (`streamTap`) to an Icecast mount in real time while processing (`--stream`).
    public var stream: StreamSettings?
    public var streamTap: Tap = .voice
    /// How the stream buffers and retries (tests shorten the times).
    public var streamOptions = StreamOptions()
    /// What makes the chain's LV2 units (nil: a preset with one is refused).
    public var pluginHost: (any PluginHost)?

    public init(micPath: String, referencePath: String?, outputPath: String) {
        self.micPath = micPath
        self.referencePath = referencePath
        self.outputPath = outputPath
    }
}

/// What an offline run did and measured.
public struct OfflineReport: Sendable {
    public let frames: Int
    public let sampleRate: Int
    public let referenceChannels: Int
    public let plan: FramePlan
    /// Latency the same settings add live (samples); the offline output is compensated for it.
    public let liveLatency: Int
    public let health: HealthFigures
    public let format: AudioFormat
    public let cpuSeconds: Double
    public let notes: [String]
    /// One line per recorded tap.
    public let tapLines: [String]
    /// Frames of the backing track its reader did not deliver in time (nil without a backing).
    public internal(set) var backingUnderruns: Int?
    /// How the output was written when that is worth saying (a followed symbolic link).
    public internal(set) var outputNote: String?
    /// `--stream`: what went on air (`streamed voice to icecast://...: stream stopped, on air ...`).
    public internal(set) var streamLine: String?
    /// `--stream`: the error the stream stopped on mid-run, if any (the files are complete).
    public internal(set) var streamError: StreamError?
}

/// Runs a session over files: the offline driver renders the very cycle the JACK client runs
/// (ducking aside, see below), block by block, streaming the inputs and the outputs, so memory
/// stays flat whatever the files' length.
///
/// The output is time-aligned with the mic (sample n of OUT is sample n of MIC processed, same
/// length): the voice's first `latency` frames are dropped and the input is followed by
/// `latency` frames of silence. Every tap is aligned the same way (`OfflineOutputs`). `--ref` is
/// what the loudspeakers played, so the preset's ducking (which shapes what they play) is off.
///
/// - Realtime: never (this is the offline session).
public enum OfflineProcessor {
    public static func run(
        _ request: OfflineRequest, configuration preset: EngineConfiguration,
        session: SessionSettings = SessionSettings(), progress: ((Double) -> Void)? = nil
    ) throws(HostError) -> OfflineReport {
        Interruption.block()
        var configuration = preset
        configuration.ducking = false
        // The learned suppressor's model runs in place: no deadline offline, and the output is
        // the same on every run (live, its worker may miss hops under load).
        configuration.learnedRunsInPlace = true
        let format = try outputFormat(request)
        let backingPath = request.backingPath ?? (session.backingFile.isEmpty ? nil : session.backingFile)
        if let backingPath { _ = try BackingTrack.open(backingPath) }
        try checkOutputPath(request.outputPath, force: request.force)
        let sources = try OfflineSources(
            micPath: request.micPath, referencePath: request.referencePath,
            needsReference: configuration.needsReference, allowLengthMismatch: request.allowLengthMismatch,
            referenceOptional: backingPath != nil)
        try validate(format, sampleRate: sources.sampleRate, path: request.outputPath)
        let backing = try backingPath.map { (path) throws(HostError) in
            try BackingTrack(
                path: path, sampleRate: sources.sampleRate, levelDB: session.backingLevelDB,
                loop: session.backingLoop)
        }
        let referenceChannels = backing != nil ? 2 : max(1, sources.referenceChannels)
        let host: CycleHost
        do {
            host = try CycleHost(
                configuration: configuration, sampleRate: sources.sampleRate, blockSize: request.blockSize,
                referenceChannels: referenceChannels,
                karaokeDB: (session.karaokeVoiceDB, session.karaokeBackingDB), pluginHost: request.pluginHost)
        } catch .plugin(let error) {
            throw HostError(.data, error.message)
        } catch {
            if let missing = error.learnedStageMissing {
                throw HostError(missing ? .unavailable : .configuration, error.description)
            }
            throw HostError(.usage, error.description)
        }
        let outputs = try OfflineOutputs(
            outputPath: request.outputPath, format: format, taps: request.taps, sampleRate: sources.sampleRate,
            force: request.force, hasReference: sources.referenceChannels > 0 || backing != nil)
        let status = host.status()
        let monitorLatency = host.cycle.pointee.monitorLatency
        let streaming: OfflineStreaming?
        do {
            streaming = try request.stream.map { (settings) throws(HostError) in
                if request.streamTap == .reference && !(sources.referenceChannels > 0 || backing != nil) {
                    throw HostError(.usage, "--stream-tap reference: this run has no reference (--ref or --backing)")
                }
                return try OfflineStreaming(
                    settings: settings, tap: request.streamTap, sampleRate: sources.sampleRate,
                    options: request.streamOptions)
            }
        } catch {
            outputs.discard()
            throw error
        }
        let streamRoute = streaming.map {
            $0.route(
                skip: OfflineOutputs.lag(of: $0.tap, latency: status.latency, monitorLatency: monitorLatency),
                limit: sources.micFrames)
        }
        let steering = OfflineLoudnessSteering(session: session, configuration: configuration, host: host)
        _ = host.route(
            outputs.routes(latency: status.latency, monitorLatency: monitorLatency, micFrames: sources.micFrames)
                + [streamRoute, steering?.route].compactMap { $0 })
        if let backing { host.attachBacking(backing.source) }
        let cpuStart = cpuTime()
        let driver = OfflineDriver(
            sources: sources, blockSize: request.blockSize, tailFrames: status.latency + 1, progress: progress,
            beforeCycle: { () throws(HostError) in
                try backing?.refill()
                try outputs.waitForRoom(request.blockSize)
                streaming?.pace(frames: request.blockSize)
                steering?.step()
            },
            afterMicEnded: { host.limitRecordings(toFrames: $0) })
        do {
            try driver.start(host)
        } catch {
            _ = host.route([])
            outputs.discard()
            streaming?.abandon()
            throw driver.failure ?? HostError(.io, error.message)
        }
        _ = host.route([])
        let streamStatus = streaming?.finish()
        let written = try outputs.finish()
        var notes = sources.notes + host.engineNotes
        if let backing, let path = backingPath {
            let resampled = backing.fileRate == sources.sampleRate ? "" : ", resampled from \(backing.fileRate) Hz"
            notes.append(
                "backing track \(path) (\(backing.fileChannels) ch\(resampled)) at \(PresetText.decibels(session.backingLevelDB))\(session.backingLoop ? ", looping" : "")"
                    + (configuration.needsReference ? "; mixed into the reference" : ""))
        }
        if preset.ducking { notes.append("ducking is live only: --ref is taken as what the speakers played") }
        // The stream's own lines already start with "stream".
        notes += streaming?.takeMessages() ?? []
        var report = OfflineReport(
            frames: written.frames, sampleRate: sources.sampleRate,
            referenceChannels: backing != nil ? 2 : sources.referenceChannels,
            plan: host.plan, liveLatency: status.latency, health: host.status().health, format: format,
            cpuSeconds: cpuTime() - cpuStart, notes: notes, tapLines: written.tapLines)
        report.backingUnderruns = backing?.underruns
        report.outputNote = outputs.notes.isEmpty ? nil : outputs.notes.joined(separator: "; ")
        if let streaming, let streamStatus {
            report.streamLine = "streamed \(streaming.tap.rawValue) to \(streaming.target): \(streamStatus.text)"
            report.streamError = streamStatus.error
        }
        return report
    }

    public static func outputFormat(_ request: OfflineRequest) throws(HostError) -> AudioFormat {
        if let format = request.format { return format }
        if let format = AudioFormat.forPath(request.outputPath) { return format }
        throw HostError(
            .usage,
            "cannot tell the format of \(request.outputPath) from its extension; use .wav, .flac, .w64, .rf64, .caf, .ogg, .opus or .mp3, or pass --format"
        )
    }

    static func validate(_ format: AudioFormat, sampleRate: Int, path: String) throws(HostError) {
        do {
            try format.validate(channels: 1, sampleRate: sampleRate)
        } catch {
            throw HostError(.usage, "--out \(path): \(error.description)")
        }
    }

    public static func checkOutputPath(_ path: String, force: Bool) throws(HostError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw HostError(.cannotCreate, "output \(path) is a directory; give a file name")
            }
            if !force {
                throw HostError(.cannotCreate, "output \(path) already exists; pass --force to overwrite it")
            }
        }
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        guard fm.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HostError(.cannotCreate, "cannot create \(path): folder \(folder) does not exist")
        }
        guard fm.isWritableFile(atPath: folder) else {
            throw HostError(.cannotCreate, "cannot create \(path): folder \(folder) is not writable")
        }
    }

    /// CPU time of this process (user + system), in seconds.
    public static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Small text helpers for notes.
enum PresetText {
    static func decibels(_ db: Float) -> String { db == db.rounded() ? "\(Int(db)) dB" : "\(db) dB" }
}
