import Foundation
import VoiceEngine
import VoiceFiles
import VoiceRT
import VoiceRecorder

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
}

/// Runs the engine over files: the same render cycle, block by block, as the JACK client runs.
///
/// The output is time-aligned with the mic (sample n of OUT is sample n of MIC processed, same
/// length): the first `latency` samples the engine emits are dropped and the input is padded
/// with `latency` samples of silence at the end. The output is written to a temporary file next
/// to OUT and renamed over it only when complete, so a failed run never leaves a half file or
/// destroys an existing one.
///
/// - Realtime: never (this is the offline driver).
public enum OfflineProcessor {
    public static func run(
        _ request: OfflineRequest, configuration: EngineConfiguration,
        progress: ((Double) -> Void)? = nil
    ) throws(HostError) -> OfflineReport {
        let format = try outputFormat(request)
        let backingPath = request.backingPath ?? (configuration.backingFile.isEmpty ? nil : configuration.backingFile)
        if let backingPath { _ = try BackingTrack.open(backingPath) }
        try checkOutputPath(request.outputPath, force: request.force)
        let loaded = try OfflineInputs.load(
            micPath: request.micPath, referencePath: request.referencePath,
            needsReference: configuration.needsReference, allowLengthMismatch: request.allowLengthMismatch,
            referenceOptional: backingPath != nil)
        try validate(format, sampleRate: loaded.sampleRate, path: request.outputPath)
        let backing = try backingPath.map { (path) throws(HostError) in
            try OfflineBacking(path: path, inputs: loaded, configuration: configuration, blockSize: request.blockSize)
        }
        let inputs = backing?.inputs ?? loaded
        let taps = try OfflineTaps(
            request.taps, inputs: inputs, force: request.force, backing: backing?.signal ?? [],
            karaokeGains: OfflineBacking.karaokeGains(configuration))
        let engine: VoiceEngine
        do {
            engine = try VoiceEngine(
                configuration: configuration, sampleRate: inputs.sampleRate, blockSize: request.blockSize,
                referenceChannels: max(1, inputs.reference.count))
        } catch {
            throw HostError(.usage, error.description)
        }
        let target = try OutputTarget.resolve(request.outputPath, format: format)
        let cpuStart = cpuTime()
        do {
            let writer = try AudioFileWriter(
                path: target.writePath, format: format, sampleRate: inputs.sampleRate, channels: 1)
            try render(inputs, engine: engine, into: writer, taps: taps, progress: progress)
            try writer.close()
            try target.commit()
        } catch {
            target.discard()
            _ = try? taps.finish()
            throw HostError(error.isDataError ? .data : .io, error.description)
        }
        let tapLines = try taps.finish()
        var report = OfflineReport(
            frames: inputs.mic.count, sampleRate: inputs.sampleRate,
            referenceChannels: inputs.reference.count, plan: engine.plan, liveLatency: engine.latency,
            health: engine.health(), format: format, cpuSeconds: cpuTime() - cpuStart, notes: inputs.notes,
            tapLines: tapLines)
        report.outputNote = target.note
        report.backingUnderruns = backing?.underruns
        return report
    }

    /// Feeds the engine block by block and writes the aligned output.
    static func render(
        _ inputs: OfflineInputs, engine: VoiceEngine, into writer: AudioFileWriter, taps: OfflineTaps,
        progress: ((Double) -> Void)?
    ) throws(AudioFileError) {
        let total = inputs.mic.count
        var written = 0
        var lastReported = -1
        try OfflineRenderer(engine: engine).process(mic: inputs.mic, reference: inputs.reference) {
            (chunk) throws(AudioFileError) in
            try writer.write(chunk.baseAddress!, frames: chunk.count)
            taps.write(voice: chunk, at: written)
            written += chunk.count
            let percent = written * 100 / total
            if let progress, percent != lastReported {
                lastReported = percent
                progress(Double(written) / Double(total))
            }
        }
    }

    static func outputFormat(_ request: OfflineRequest) throws(HostError) -> AudioFormat {
        if let format = request.format { return format }
        if let format = AudioFormat.forPath(request.outputPath) { return format }
        throw HostError(
            .usage,
            "cannot tell the format of \(request.outputPath) from its extension; use .wav, .flac, .w64, .rf64, .caf, .ogg, .opus or .mp3, or pass --format")
    }

    static func validate(_ format: AudioFormat, sampleRate: Int, path: String) throws(HostError) {
        do {
            try format.validate(channels: 1, sampleRate: sampleRate)
        } catch {
            throw HostError(.usage, "--out \(path): \(error.description)")
        }
    }

    static func checkOutputPath(_ path: String, force: Bool) throws(HostError) {
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
    static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
