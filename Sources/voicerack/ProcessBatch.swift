import ArgumentParser
import Foundation
import VoiceBatch
import VoiceEngine
import VoiceHost
import VoicePresets

extension Process {
    /// `--set KEY=VALUE` options as settings.
    func parsedSettings() throws(HostError) -> [BatchJob.Setting] {
        try settings.map { (text) throws(HostError) in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw HostError(.usage, "--set \(text): expected KEY=VALUE, e.g. --set compressor.threshold_dbfs=-18")
            }
            return BatchJob.Setting(key: parts[0], value: parts[1])
        }
    }

    /// `preset` with `settings` applied in order, each checked as a preset line is.
    static func applying(
        _ settings: [BatchJob.Setting], to preset: PresetSettings, pluginHost: (any PluginHost)?
    ) throws(HostError) -> PresetSettings {
        var changed = preset
        for setting in settings {
            do {
                changed = try PresetEdit.setting(setting.key, .word(setting.value), in: changed, pluginHost: pluginHost)
            } catch {
                throw HostError(.usage, "--set \(setting.key)=\(setting.value): \(error.description)")
            }
        }
        return changed
    }

    /// Runs this worker's share of the manifest; report lines go to standard output or `--report`.
    func runBatch(_ manifest: String, pluginHost: (any PluginHost)?) throws {
        do {
            let jobs = try BatchManifest.read(manifest)
            var runner = BatchRunner(preset: preset, pluginHost: pluginHost)
            if let text = batch.shard {
                runner.shard = try BatchShard(parsing: text)
            } else if let shard = try BatchShard.fromEnvironment(
                ProcessInfo.processInfo.environment, count: batch.shards)
            {
                runner.shard = shard
            }
            runner.loudness = loudness.target
            runner.force = force
            runner.blockSize = block
            runner.settings = try parsedSettings()
            // A bad --set fails the whole worker at once, not every job.
            _ = try Self.applying(runner.settings, to: PresetSettings(), pluginHost: pluginHost)
            let sink = try ReportSink(path: batch.report)
            let outcome = runner.run(jobs, library: PresetLibrary.standard(pluginHost: pluginHost)) {
                sink.write($0.json)
            }
            let share = jobs.filter { runner.shard.includes($0) }.count
            if !quiet {
                printNote(
                    "manifest \(manifest), shard \(runner.shard): \(share) of \(jobs.count) jobs; \(outcome.done) done, \(outcome.skipped) skipped (up to date), \(outcome.failed.count) failed"
                )
            }
            for failure in outcome.failed {
                printError("line \(failure.line) (\(failure.output)): \(failure.error.message)")
            }
            if let interrupted = outcome.interrupted { throw interrupted }
            if let first = outcome.failed.first {
                throw ExitCode(first.error.exitCode)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw failureExit(reporting: error)
        }
    }
}

/// Where report lines go: standard output, or appended to a file (a requeued worker adds its
/// lines to the ones already there). Each line is written whole as its job ends.
private final class ReportSink {
    private let handle: FileHandle

    init(path: String?) throws(HostError) {
        guard let path else {
            handle = .standardOutput
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw HostError(.cannotCreate, "--report \(path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func write(_ line: String) {
        // One write per line: lines from workers appending to one file stay whole (O_APPEND).
        handle.write(Data((line + "\n").utf8))
    }
}
