import Foundation
import VoiceEngine
import VoiceHost
import VoiceLoudness
import VoicePresets

/// Runs a worker's share of a batch manifest: each job through the offline session, one after
/// the other, each output appearing whole under its name only when done.
///
/// A job whose output exists and is newer than its mic, ref and preset file is skipped (unless
/// `force`), so a killed or requeued worker is simply run again. One job's failure is reported
/// and the next job runs. Memory stays flat: every job streams its files.
///
/// - Realtime: never. The offline session's thread.
public struct BatchRunner {
    /// The preset for jobs that name none.
    public var preset: String
    public var shard = BatchShard.all
    /// Normalise each output to this loudness (nil: measure only).
    public var loudness: LoudnessTarget?
    public var force = false
    public var blockSize = 256
    /// Settings applied to every job before its own.
    public var settings: [BatchJob.Setting] = []

    /// What makes the LV2 units of the jobs' chains (nil: presets with LV2 units fail their jobs).
    public var pluginHost: (any PluginHost)?

    public init(preset: String, pluginHost: (any PluginHost)?) {
        self.preset = preset
        self.pluginHost = pluginHost
    }

    /// What the worker did.
    public struct Outcome: Sendable {
        public var done = 0
        public var skipped = 0
        public var failed: [(line: Int, output: String, error: HostError)] = []
        /// Set when a signal stopped the batch; the jobs after it did not run.
        public var interrupted: HostError?
    }

    /// Runs the jobs of this worker's shard, handing each job's report line to `report` as it ends.
    public func run(_ jobs: [BatchJob], library: PresetLibrary, report: (BatchReportLine) -> Void) -> Outcome {
        var outcome = Outcome()
        var presets: [String: Preset] = [:]
        for job in jobs where shard.includes(job) {
            var line = BatchReportLine(line: job.line, input: job.mic, ref: job.ref, output: job.out, status: "done")
            let wallStart = Date()
            let cpuStart = OfflineProcessor.cpuTime()
            do throws(HostError) {
                let name = job.preset ?? preset
                let loaded: Preset
                if let cached = presets[name] {
                    loaded = cached
                } else {
                    do { loaded = try library.load(name) } catch {
                        throw HostError(.data, error.description)
                    }
                    presets[name] = loaded
                }
                if !force, Self.isUpToDate(job, presetFile: loaded.source) {
                    line.status = "skipped"
                    outcome.skipped += 1
                    report(line)
                    continue
                }
                var resolved = loaded.settings
                for setting in settings + job.settings {
                    do {
                        resolved = try PresetEdit.setting(
                            setting.key, .word(setting.value), in: resolved, pluginHost: pluginHost)
                    } catch {
                        throw HostError(.data, "line \(job.line): \(error.description)")
                    }
                }
                var request = OfflineRequest(micPath: job.mic, referencePath: job.ref, outputPath: job.out)
                request.blockSize = blockSize
                request.force = true
                request.pluginHost = pluginHost
                let (result, measured) = try OfflineLoudness.run(
                    request, configuration: resolved.engine, session: resolved.session, target: loudness)
                line.audioSeconds = Double(result.frames) / Double(result.sampleRate)
                let erle = result.health.echoReturnLossEnhancement
                line.echoRemovedDB = erle > 0 ? 10 * log10(Double(erle)) : nil
                line.loudnessBeforeLUFS = measured.before.integrated
                line.loudnessAfterLUFS = measured.after.integrated
                line.loudnessRangeLU = measured.after.range
                line.truePeakDBTP = measured.after.truePeak
                line.note = measured.normalisation?.note
                outcome.done += 1
            } catch {
                line.status = "failed"
                line.error = error.message
                line.exitStatus = error.exitCode
                if error.kind == .interrupted {
                    outcome.interrupted = error
                } else {
                    outcome.failed.append((job.line, job.out, error))
                }
            }
            line.wallSeconds = Date().timeIntervalSince(wallStart)
            line.cpuSeconds = OfflineProcessor.cpuTime() - cpuStart
            report(line)
            if outcome.interrupted != nil { break }
        }
        return outcome
    }

    /// True when the job's output exists and is newer than each of its inputs. A missing mic or
    /// ref is never up to date (the job runs and says what is missing); a preset without a file
    /// of its own has no date to compare.
    static func isUpToDate(_ job: BatchJob, presetFile: String) -> Bool {
        guard let written = modified(job.out) else { return false }
        for input in [job.mic, job.ref].compactMap({ $0 }) {
            guard let changed = modified(input), changed < written else { return false }
        }
        if let changed = modified(presetFile), changed >= written { return false }
        return true
    }

    private static func modified(_ path: String) -> Date? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Date(
            timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }
}
