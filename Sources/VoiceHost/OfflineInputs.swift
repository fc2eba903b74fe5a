import Foundation
import VoiceEngine
import VoiceFiles
import VoiceSpeex

/// The mic and reference of an offline run, checked against each other and brought to one rate
/// and length.
///
/// - Realtime: never.
struct OfflineInputs {
    let mic: [Float]
    let sampleRate: Int
    /// Reference channels (1 or 2), each `mic.count` long; empty when no reference is used.
    let reference: [[Float]]
    /// Notes for the user about what was adapted (resampling, padding, ignored reference).
    let notes: [String]

    /// Largest length difference accepted silently between mic and (resampled) reference: 20 ms.
    static let lengthTolerance = 0.02

    /// `referenceOptional`: a missing reference is fine although the preset cancels echo (a
    /// backing track makes the reference).
    static func load(
        micPath: String, referencePath: String?, needsReference: Bool, allowLengthMismatch: Bool,
        referenceOptional: Bool = false
    ) throws(HostError) -> OfflineInputs {
        let micFile = try read(micPath, role: "MIC")
        guard micFile.channels.count == 1 else {
            throw HostError(
                .data,
                "\(micPath): the microphone file has \(micFile.channels.count) channels; voicerack processes one mic channel (extract one, e.g. `sox \(micPath) mic.wav remix 1`)"
            )
        }
        guard VoiceEngine.sampleRates.contains(micFile.sampleRate) else {
            throw HostError(
                .data,
                "\(micPath): sample rate \(micFile.sampleRate) Hz is outside \(VoiceEngine.sampleRates.lowerBound)–\(VoiceEngine.sampleRates.upperBound) Hz")
        }
        guard micFile.frames > 0 else { throw HostError(.data, "\(micPath): the file holds no audio frames") }
        var notes: [String] = []
        guard let referencePath else {
            if needsReference && !referenceOptional {
                throw HostError(
                    .usage,
                    "this preset cancels echo and needs the far-end signal: pass --ref FILE (the audio that played on the loudspeakers)")
            }
            return OfflineInputs(mic: micFile.channels[0], sampleRate: micFile.sampleRate, reference: [], notes: notes)
        }
        guard needsReference else {
            notes.append("reference \(referencePath) ignored: this preset has no echo canceller")
            return OfflineInputs(mic: micFile.channels[0], sampleRate: micFile.sampleRate, reference: [], notes: notes)
        }
        let refFile = try read(referencePath, role: "REF")
        guard (1...2).contains(refFile.channels.count) else {
            throw HostError(
                .data,
                "\(referencePath): the reference has \(refFile.channels.count) channels; voicerack takes a mono or stereo far end")
        }
        var reference = refFile.channels
        if refFile.sampleRate != micFile.sampleRate {
            do {
                reference = try reference.map {
                    try SpeexResampler.resample($0, from: refFile.sampleRate, to: micFile.sampleRate)
                }
            } catch {
                throw HostError(.data, "\(referencePath): resampling failed: \(error)")
            }
            notes.append("reference resampled from \(refFile.sampleRate) Hz to \(micFile.sampleRate) Hz (speexdsp, quality 10)")
        }
        let micFrames = micFile.frames
        let refFrames = reference[0].count
        let tolerance = Int(lengthTolerance * Double(micFile.sampleRate))
        if abs(refFrames - micFrames) > tolerance {
            let rate = Double(micFile.sampleRate)
            let message = String(
                format: "%@ is %.3f s long but %@ is %.3f s", referencePath, Double(refFrames) / rate, micPath,
                Double(micFrames) / rate)
            guard allowLengthMismatch else {
                throw HostError(
                    .data,
                    "\(message); mic and reference must be recorded together. Pass --allow-length-mismatch to pad the reference with silence or cut it to the mic's length"
                )
            }
            notes.append("\(message); reference padded/cut to the mic's length")
        }
        reference = reference.map { channel in
            channel.count >= micFrames
                ? Array(channel.prefix(micFrames))
                : channel + [Float](repeating: 0, count: micFrames - channel.count)
        }
        return OfflineInputs(mic: micFile.channels[0], sampleRate: micFile.sampleRate, reference: reference, notes: notes)
    }

    private static func read(_ path: String, role: String) throws(HostError) -> AudioFileContents {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HostError(.io, "\(role) file \(path) does not exist")
        }
        do {
            return try AudioFileContents.read(path)
        } catch {
            throw HostError(error.isDataError ? .data : .io, "\(role): \(error)")
        }
    }
}
