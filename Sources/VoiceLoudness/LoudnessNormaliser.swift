import Foundation
import VoiceFiles
import VoiceUnits

/// What a normalisation did: the figures before and after, the gain and how hard peaks were held.
public struct NormalisationResult: Sendable, Equatable {
    public var before: LoudnessReading
    public var after: LoudnessReading
    /// The static gain applied, dB (0 when the file was left as it was).
    public var gain: Double
    /// The most the limiter took off a peak, dB (0: it never acted or was not needed).
    public var limited: Double
    /// Why the target was not met, when it was not ("silent", "gain capped at +30 dB").
    public var note: String?

    /// "−31.2 LUFS, true peak −9.1 dBTP → −16.0 LUFS, true peak −1.1 dBTP (gain +15.2 dB, peaks held by up to 3.4 dB)".
    public var summary: String {
        var text = "\(before.summary) → \(after.summary)"
        var details = [String(format: "gain %+.1f dB", gain)]
        if limited > 0.05 { details.append(String(format: "peaks held by up to %.1f dB", limited)) }
        text += " (" + details.joined(separator: ", ") + ")"
        if let note { text += "; \(note)" }
        return text
    }
}

/// Offline loudness normalisation of a mono file in place: one static gain to the integrated
/// loudness asked for, and a look-ahead limiter where that gain would take true peaks over the
/// ceiling.
///
/// Streams the file (memory stays flat whatever its length): one pass measures it, passes
/// without output settle the limiter's ceiling and the gain until libebur128 reads the target
/// loudness within 0.1 LU and true peaks under the ceiling, and a last pass writes the result
/// beside the file and renames it over, so the file is never half-written. The limiter's
/// look-ahead is compensated: the output stays sample-aligned with the input, same length.
///
/// - Realtime: never (file I/O). Any one thread.
public enum LoudnessNormaliser {
    /// Frames read per block.
    static let blockFrames = 4_096
    /// Attempts at settling gain and ceiling before the last, written pass.
    static let maximumPasses = 6
    /// A result further under the target than this (LU) says why: a short, peaky take (half a
    /// second of speech with one sharp syllable) cannot reach a loud target with its true peaks
    /// held under the ceiling.
    static let shortfallNoted = 0.3

    /// The file's loudness figures.
    public static func measure(_ path: String) throws(LoudnessError) -> LoudnessReading {
        let stream = try open(path, mono: false)
        guard let meter = LoudnessMeter(channels: stream.channels, sampleRate: stream.sampleRate) else {
            throw .unmeasurable(path: path, sampleRate: stream.sampleRate, channels: stream.channels)
        }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * stream.channels)
        defer { buffer.deallocate() }
        while true {
            let got = try read(stream, into: buffer, frames: blockFrames)
            if got == 0 { break }
            meter.add(buffer, frames: got)
        }
        return meter.reading
    }

    /// Normalises the mono file at `path` (written as `format`) to `target`, in place.
    public static func normalise(
        _ path: String, format: AudioFormat, to target: LoudnessTarget
    ) throws(LoudnessError) -> NormalisationResult {
        let before = try measure(path)
        guard let loudness = before.integrated, let peak = before.truePeak else {
            return NormalisationResult(
                before: before, after: before, gain: 0, limited: 0,
                note: "left as it was: no stretch louder than R128's −70 LUFS gate")
        }
        var gain = min(target.integrated - loudness, target.maximumGain)
        let capped = target.integrated - loudness > target.maximumGain
        let allowed = target.truePeakCeiling - LoudnessTarget.peakMargin
        var ceiling: Double? = peak + gain > allowed ? allowed - 0.2 : nil
        var settled = Pass(gain: gain, ceiling: ceiling)
        if ceiling != nil {
            for _ in 0..<maximumPasses {
                settled = try render(path, format: format, gain: gain, ceiling: ceiling, writeTo: nil)
                let over = (settled.reading.truePeak ?? -200) - allowed
                let short = capped ? 0 : target.integrated - (settled.reading.integrated ?? target.integrated)
                if over <= 0, abs(short) <= LoudnessTarget.loudnessTolerance { break }
                if over > 0 { ceiling = ceiling.map { $0 - over - 0.05 } }
                if !capped { gain = min(gain + short, target.maximumGain) }
            }
        }
        let temporary = temporaryPath(for: path)
        let written: Pass
        do {
            written = try render(path, format: format, gain: gain, ceiling: ceiling, writeTo: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .file(.writeFailed(path: path, reason: reason))
        }
        let short = target.integrated - (written.reading.integrated ?? target.integrated)
        let note: String? =
            if capped {
                String(format: "gain capped at %+.0f dB: the target was not reached", gain)
            } else if short > shortfallNoted {
                String(format: "%.1f LU short of the target: holding the peaks under the ceiling took the rest", short)
            } else {
                nil
            }
        return NormalisationResult(
            before: before, after: written.reading, gain: gain, limited: written.limited, note: note)
    }

    /// One pass's outcome.
    struct Pass {
        var gain: Double
        var ceiling: Double?
        var reading = LoudnessReading(integrated: nil, range: nil, truePeak: nil)
        var limited = 0.0
    }

    /// Runs the file through the gain and, when `ceiling` is set (dBFS), the limiter; measures
    /// the result, and writes it to `writeTo` when given.
    static func render(
        _ path: String, format: AudioFormat, gain: Double, ceiling: Double?, writeTo output: String?
    ) throws(LoudnessError) -> Pass {
        let stream = try open(path, mono: true)
        guard let meter = LoudnessMeter(channels: 1, sampleRate: stream.sampleRate) else {
            throw .unmeasurable(path: path, sampleRate: stream.sampleRate, channels: 1)
        }
        var writer: AudioFileWriter?
        if let output {
            do {
                writer = try AudioFileWriter(path: output, format: format, sampleRate: stream.sampleRate, channels: 1)
            } catch { throw .file(error) }
        }
        var limiter = ceiling.map { Limiter(ceilingDBFS: Float($0), releaseMs: 50) }
        limiter?.prepare(ProcessSpec(sampleRate: Double(stream.sampleRate), maximumBlockSize: blockFrames))
        defer { limiter?.deallocate() }
        // The limiter's look-ahead: its first `delay` output samples precede the file's first.
        var toDrop = limiter?.latencySamples() ?? 0
        var tail = toDrop
        let scale = Float(pow(10, gain / 20))
        var pass = Pass(gain: gain, ceiling: ceiling)
        var loudestIn: Float = 0
        let p = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames)
        defer { p.deallocate() }
        while true {
            var got = try read(stream, into: p, frames: blockFrames)
            if got == 0 {
                // Flush the look-ahead with silence so the output keeps the input's length.
                guard tail > 0 else { break }
                got = min(tail, blockFrames)
                p.update(repeating: 0, count: got)
                tail -= got
            }
            for i in 0..<got {
                p[i] *= scale
                loudestIn = max(loudestIn, abs(p[i]))
            }
            limiter?.process(p, frames: got)
            let skip = min(toDrop, got)
            toDrop -= skip
            meter.add(p + skip, frames: got - skip)
            if let writer {
                do { try writer.write(p + skip, frames: got - skip) } catch { throw .file(error) }
            }
        }
        if let writer { do { try writer.close() } catch { throw .file(error) } }
        pass.reading = meter.reading
        if let ceiling, loudestIn > 0 { pass.limited = max(0, 20 * Double(log10(loudestIn)) - ceiling) }
        return pass
    }

    private static func open(_ path: String, mono: Bool) throws(LoudnessError) -> AudioFileStream {
        let stream: AudioFileStream
        do { stream = try AudioFileStream(path: path) } catch { throw .file(error) }
        if mono, stream.channels != 1 { throw .notMono(path: path, channels: stream.channels) }
        return stream
    }

    private static func read(
        _ stream: AudioFileStream, into buffer: UnsafeMutablePointer<Float>, frames: Int
    ) throws(LoudnessError) -> Int {
        do { return try stream.read(into: buffer, frames: frames) } catch { throw .file(error) }
    }

    /// A hidden file beside `path` (same folder, so a rename replaces `path` in one step) with the
    /// same extension, so the format reads the same.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.deletingPathExtension().lastPathComponent).loudness-\(getpid())"
        let ext = url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent(ext.isEmpty ? name : "\(name).\(ext)").path
    }
}
