import Foundation
import VoiceEngine
import VoiceFiles
import VoiceSpeex

/// The mic and reference files of an offline run, read block by block (memory stays flat
/// whatever the files' length), the reference resampled to the mic's rate as it streams.
///
/// Lengths are checked up front when both files report one; a file whose length libsndfile
/// cannot tell (a pipe, a truncated Ogg or FLAC) is read to its end and checked when it ends.
///
/// - Realtime: never (the offline driver's thread).
final class OfflineSources {
    let micPath: String
    let referencePath: String?
    let sampleRate: Int
    /// Reference channels (1 or 2); 0 when no reference is used.
    let referenceChannels: Int
    /// The mic's length as its header tells, or nil when unknown.
    let micFrames: Int?
    /// Notes for the user about what was adapted (resampling, ignored reference).
    private(set) var notes: [String] = []
    private let mic: AudioFileStream
    private let reference: AudioFileStream?
    private let resampler: StreamingResampler?
    private let allowLengthMismatch: Bool
    /// Reference frames read from the file, before resampling, and produced at the mic's rate.
    private var referenceFileChunk: [Float] = []
    private var referenceFileFrames = 0
    private var referenceFileOffset = 0
    private var referenceEnded = false
    /// Resampled reference frames not yet handed out (interleaved), from `pendingOffset` frames on.
    private var pending: [Float] = []
    private var pendingOffset = 0
    /// Frames handed out so far.
    private(set) var micFramesRead = 0
    private(set) var referenceFramesRead = 0

    /// Largest length difference accepted silently between mic and (resampled) reference: 20 ms.
    static let lengthTolerance = 0.02
    static let chunkFrames = 4_096

    /// Opens the files and checks them against each other. `referenceOptional`: a missing
    /// reference is fine although the preset cancels echo (a backing track makes the reference).
    init(
        micPath: String, referencePath: String?, needsReference: Bool, allowLengthMismatch: Bool,
        referenceOptional: Bool
    ) throws(HostError) {
        self.micPath = micPath
        self.allowLengthMismatch = allowLengthMismatch
        mic = try Self.open(micPath, role: "MIC")
        guard mic.channels == 1 else {
            throw HostError(
                .data,
                "\(micPath): the microphone file has \(mic.channels) channels; voicerack processes one mic channel (extract one, e.g. `sox \(micPath) mic.wav remix 1`)"
            )
        }
        guard VoiceEngine.sampleRates.contains(mic.sampleRate) else {
            throw HostError(
                .data,
                "\(micPath): sample rate \(mic.sampleRate) Hz is outside \(VoiceEngine.sampleRates.lowerBound)–\(VoiceEngine.sampleRates.upperBound) Hz"
            )
        }
        sampleRate = mic.sampleRate
        micFrames = Self.knownLength(mic)
        guard let referencePath else {
            if needsReference && !referenceOptional {
                throw HostError(
                    .usage,
                    "this preset cancels echo and needs the far-end signal: pass --ref FILE (the audio that played on the loudspeakers)"
                )
            }
            self.referencePath = nil
            reference = nil
            resampler = nil
            referenceChannels = 0
            return
        }
        guard needsReference else {
            self.referencePath = nil
            reference = nil
            resampler = nil
            referenceChannels = 0
            notes.append("reference \(referencePath) ignored: this preset has no echo canceller")
            return
        }
        self.referencePath = referencePath
        let ref = try Self.open(referencePath, role: "REF")
        guard (1...2).contains(ref.channels) else {
            throw HostError(
                .data,
                "\(referencePath): the reference has \(ref.channels) channels; voicerack takes a mono or stereo far end"
            )
        }
        reference = ref
        referenceChannels = ref.channels
        do {
            resampler = try StreamingResampler(channels: ref.channels, from: ref.sampleRate, to: mic.sampleRate)
        } catch {
            throw HostError(.data, "\(referencePath): resampling failed: \(error)")
        }
        if ref.sampleRate != mic.sampleRate {
            notes.append("reference resampled from \(ref.sampleRate) Hz to \(mic.sampleRate) Hz (speexdsp, quality 10)")
        }
        referenceFileChunk = [Float](repeating: 0, count: Self.chunkFrames * ref.channels)
        if let micFrames, let refFrames = Self.knownLength(ref) {
            let resampled = Int((Double(refFrames) * Double(mic.sampleRate) / Double(ref.sampleRate)).rounded())
            try checkLengths(micFrames: micFrames, referenceFrames: resampled)
        }
    }

    /// Reads up to `n` mic frames into `micBlock` and as many reference frames into `left`/`right`
    /// (the same frames in both for a mono reference; silence without one), zero-filling past
    /// the end. Returns the mic frames read: 0 at the end of the mic.
    func read(
        n: Int, micBlock: UnsafeMutablePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>
    ) throws(HostError) -> Int {
        var got = 0
        while got < n {
            let r: Int
            do { r = try mic.read(into: micBlock + got, frames: n - got) } catch {
                throw HostError(.data, "MIC: \(error)")
            }
            if r == 0 { break }
            got += r
        }
        for i in got..<n { micBlock[i] = 0 }
        micFramesRead += got
        try readReference(n, left, right)
        return got
    }

    /// Checks, once the mic has ended, that the reference did not end much earlier than it
    /// (lengths that were unknown up front). Throws like the up-front check.
    func checkEnd() throws(HostError) {
        guard reference != nil, let micFrames = micFrames ?? Optional(micFramesRead), referenceEnded else { return }
        try checkLengths(micFrames: micFrames, referenceFrames: referenceFramesRead)
    }

    private func checkLengths(micFrames: Int, referenceFrames: Int) throws(HostError) {
        let tolerance = Int(Self.lengthTolerance * Double(sampleRate))
        guard abs(referenceFrames - micFrames) > tolerance, let referencePath else { return }
        let rate = Double(sampleRate)
        let message = String(
            format: "%@ is %.3f s long but %@ is %.3f s", referencePath, Double(referenceFrames) / rate, micPath,
            Double(micFrames) / rate)
        guard allowLengthMismatch else {
            throw HostError(
                .data,
                "\(message); mic and reference must be recorded together. Pass --allow-length-mismatch to pad the reference with silence or cut it to the mic's length"
            )
        }
        if !notes.contains(where: { $0.hasPrefix(message) }) {
            notes.append("\(message); reference padded/cut to the mic's length")
        }
    }

    /// Fills `n` frames of reference at the mic's rate, silence past its end.
    private func readReference(
        _ n: Int, _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>
    ) throws(HostError) {
        guard let reference, let resampler else {
            for i in 0..<n {
                left[i] = 0
                right[i] = 0
            }
            return
        }
        let channels = reference.channels
        var filled = 0
        while filled < n {
            let available = pending.count / channels - pendingOffset
            if available > 0 {
                let take = min(available, n - filled)
                for i in 0..<take {
                    let f = (pendingOffset + i) * channels
                    left[filled + i] = pending[f]
                    right[filled + i] = channels == 2 ? pending[f + 1] : pending[f]
                }
                pendingOffset += take
                filled += take
                referenceFramesRead += take
                continue
            }
            if referenceEnded { break }
            try resampleNextChunk(reference, resampler)
        }
        for i in filled..<n {
            left[i] = 0
            right[i] = 0
        }
    }

    /// Reads the next file chunk (at the end: the resampler's tail) into `pending`.
    private func resampleNextChunk(_ reference: AudioFileStream, _ resampler: StreamingResampler) throws(HostError) {
        let channels = reference.channels
        if referenceFileOffset == referenceFileFrames {
            do {
                referenceFileFrames = try referenceFileChunk.withUnsafeMutableBufferPointer {
                    (b) throws(AudioFileError) in
                    try reference.read(into: b.baseAddress!, frames: Self.chunkFrames)
                }
            } catch {
                throw HostError(.data, "REF: \(error)")
            }
            referenceFileOffset = 0
            if referenceFileFrames == 0 {
                referenceEnded = true
                return
            }
        }
        var output = [Float](
            repeating: 0, count: resampler.outputFrames(forInput: referenceFileFrames - referenceFileOffset) * channels)
        let result: (consumed: Int, produced: Int)
        do {
            result = try referenceFileChunk.withUnsafeBufferPointer { input in
                try output.withUnsafeMutableBufferPointer { out in
                    try resampler.process(
                        input.baseAddress! + referenceFileOffset * channels,
                        inputFrames: referenceFileFrames - referenceFileOffset,
                        into: out.baseAddress!, outputCapacity: out.count / channels)
                }
            }
        } catch {
            throw HostError(.data, "\(reference.path): resampling failed: \(error)")
        }
        referenceFileOffset += result.consumed
        pending = Array(output.prefix(result.produced * channels))
        pendingOffset = 0
    }

    /// The frames a file's header reports, or nil when libsndfile cannot tell (unseekable input,
    /// a truncated Ogg or FLAC: it then reports 0 or an absurd count).
    static func knownLength(_ stream: AudioFileStream) -> Int? {
        stream.knownFrames.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func open(_ path: String, role: String) throws(HostError) -> AudioFileStream {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HostError(.noInput, "\(role) file \(path) does not exist")
        }
        do {
            return try AudioFileStream(path: path)
        } catch {
            throw HostError(.data, "\(role): \(error)")
        }
    }
}
