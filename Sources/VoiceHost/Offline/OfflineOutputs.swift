import Foundation
import VoiceCycle
import VoiceFiles
import VoiceRecorder

/// The files an offline run writes: the processed voice (`--out`) and the taps (`--record`),
/// all through the recorder the live client uses, fed by the same cycle.
///
/// Every file is aligned with the mic: a tap that lags it live (the voice, tuning and karaoke
/// taps by the engine's latency, the processed monitor too) drops that many frames first, and
/// every file stops at the mic's length. Regular files are written to a hidden temporary next
/// to them and renamed into place only when complete, so a failed or interrupted run never
/// leaves a half file or destroys an existing one.
///
/// - Realtime: never (the offline driver's thread; it may wait for the writers).
final class OfflineOutputs {
    struct Output {
        let tap: Tap
        let finalPath: String
        let recording: Recording
        /// How the file is written: a temporary renamed into place, or straight into a device or
        /// FIFO (`OutputTarget`).
        let target: OutputTarget
        /// The finished spec's name for rotated files (`out-0002.wav`).
        let finalSpec: RecordingSpec
    }

    let outputs: [Output]
    /// What the user should know about where files went (a followed symbolic link).
    let notes: [String]

    /// Checks every path and format, refuses two outputs to one file, and opens them all before
    /// any audio is processed. `outputPath` is the voice; `taps` the extra recordings.
    init(
        outputPath: String, format: AudioFormat, taps: [(tap: Tap, path: String)], sampleRate: Int, force: Bool,
        hasReference: Bool
    ) throws(HostError) {
        var planned: [(Tap, RecordingSpec)] = []
        var seen: [String: String] = [Self.identity(outputPath): "--out"]
        planned.append((.voice, RecordingSpec(path: outputPath, format: format, sampleRate: sampleRate, channels: 1)))
        for (tap, path) in taps {
            let name = "--record \(tap.rawValue)=\(path)"
            if let earlier = seen[Self.identity(path)] {
                let target = Self.linkTarget(path).map { " (a link to \($0))" } ?? ""
                throw HostError(
                    .usage, "\(name): \(earlier) already writes \(path)\(target); give each output its own file")
            }
            seen[Self.identity(path)] = name
            if tap == .reference && !hasReference {
                throw HostError(
                    .usage,
                    "--record reference=\(path): this run has no reference (--ref, with a preset that cancels echo)")
            }
            guard let chosen = AudioFormat.forPath(path)?.suited(toChannels: tap.channels) else {
                throw HostError(
                    .usage,
                    "\(name): cannot tell the format from the extension; use .wav, .flac, .w64, .rf64, .caf, .ogg, .opus or .mp3"
                )
            }
            do {
                try chosen.validate(channels: tap.channels, sampleRate: sampleRate)
            } catch {
                throw HostError(.usage, "\(name): \(error.description)")
            }
            planned.append(
                (tap, RecordingSpec(path: path, format: chosen, sampleRate: sampleRate, channels: tap.channels)))
        }
        for (_, spec) in planned { try OfflineProcessor.checkOutputPath(spec.path, force: force) }
        let targets = try planned.map { (tap, spec) throws(HostError) in
            try OutputTarget.resolve(spec.path, format: spec.format)
        }
        var opened: [Output] = []
        for ((tap, spec), target) in zip(planned, targets) {
            var writing = spec
            writing.path = target.writePath
            // Offline the writer is never starved: a small buffer is enough.
            writing.bufferSeconds = 2
            // A device or FIFO is one stream: it cannot roll over into numbered files.
            if target.finalPath == nil { writing.maximumFileBytes = nil }
            do {
                opened.append(
                    Output(
                        tap: tap, finalPath: spec.path, recording: try Recording(spec: writing), target: target,
                        finalSpec: spec))
            } catch {
                Self.discard(opened)
                // The hidden temporary is ours, not the user's: the error names the file asked for.
                throw HostError(
                    .cannotCreate,
                    "\(spec.path): " + error.message.replacingOccurrences(of: target.writePath, with: spec.path))
            }
        }
        outputs = opened
        notes = targets.compactMap(\.note)
    }

    /// A path's identity for duplicate checks: the folder resolved (symlinks, `..`) plus the name,
    /// a link to a file (there or not yet) counting as that file.
    private static func identity(_ path: String) -> String {
        let url = URL(fileURLWithPath: linkTarget(path) ?? path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent)
            .path
    }

    /// The file a symbolic link at `path` leads to, through links to links (a loop gives up);
    /// nil when `path` is no link.
    private static func linkTarget(_ path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
            current =
                URL(fileURLWithPath: next, relativeTo: URL(fileURLWithPath: current).deletingLastPathComponent())
                .path
        }
        return current == path ? nil : current
    }

    /// The cycle's routes: each file's window on the timeline (see the type's comment).
    func routes(latency: Int, monitorLatency: Int, micFrames: Int?) -> [TapRoute] {
        outputs.map { o in
            TapRoute(
                tap: o.tap, input: o.recording.input,
                skip: Self.lag(of: o.tap, latency: latency, monitorLatency: monitorLatency), limit: micFrames)
        }
    }

    /// Frames `tap` lags the mic by: the voice and what carries it by the engine's latency, the
    /// processed monitor by its own, the inputs by none.
    static func lag(of tap: Tap, latency: Int, monitorLatency: Int) -> Int {
        switch tap {
        case .voice, .tuning, .karaoke: latency
        case .monitor: monitorLatency
        case .mic, .reference: 0
        }
    }

    /// Waits until every writer can take `frames` more frames: offline nothing is dropped.
    func waitForRoom(_ frames: Int) throws(HostError) {
        for o in outputs {
            while !o.recording.input.canAccept(frames) {
                if let error = o.recording.error { throw HostError(.io, "\(o.finalPath): \(error.description)") }
                usleep(500)
            }
        }
    }

    /// Finishes the files and moves them into place; returns a line per tap (not the voice).
    func finish() throws(HostError) -> (frames: Int, tapLines: [String]) {
        for o in outputs { o.recording.finishProducer() }
        var lines: [String] = []
        var frames = 0
        var failure: HostError?
        let results = outputs.map { ($0, $0.recording.waitUntilFinished()) }
        for (o, result) in results where failure == nil {
            if let error = result.error { failure = HostError(.io, "\(o.finalPath): \(error.description)") }
        }
        if let failure {
            for (o, result) in results where o.target.finalPath != nil { for file in result.files { unlink(file) } }
            throw failure
        }
        for (o, result) in results {
            var finals: [String] = []
            for (i, file) in result.files.enumerated() {
                // A device or FIFO was written in place; a regular file (or a link's target) is
                // renamed over, numbered after the first when it rolled over.
                guard let final = o.target.finalPath else {
                    finals.append(o.finalPath)
                    continue
                }
                let destination =
                    i == 0
                    ? final
                    : RecordingSpec(path: final, format: o.finalSpec.format, sampleRate: 1, channels: 1).rotatedPath(i)
                guard rename(file, destination) == 0 else {
                    throw HostError(.io, "cannot move \(file) to \(destination): " + String(cString: strerror(errno)))
                }
                finals.append(i == 0 ? o.finalPath : destination)
            }
            let written = result.status.framesWritten
            if o.tap == .voice && o.finalPath == outputs[0].finalPath {
                frames = written
                if finals.count > 1 {
                    lines.append("the output passed 4 GiB: continued in " + finals.dropFirst().joined(separator: ", "))
                }
                continue
            }
            lines.append(
                "recorded \(o.tap.rawValue) to \(finals.joined(separator: ", ")) (\(o.recording.spec.format), \(o.tap.channels) ch, \(written) frames)"
            )
        }
        return (frames, lines)
    }

    /// Closes and removes every file (a failed or interrupted run).
    func discard() { Self.discard(outputs) }

    private static func discard(_ outputs: [Output]) {
        for o in outputs {
            o.recording.finishProducer()
            let files = o.recording.waitUntilFinished().files
            // Never unlink a device or FIFO that was written in place.
            if o.target.finalPath != nil { for file in files { unlink(file) } }
        }
    }
}
