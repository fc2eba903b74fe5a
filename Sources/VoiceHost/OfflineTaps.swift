import Foundation
import VoiceFiles
import VoiceRecorder

/// Recordings of taps during an offline run, written through the same recorder the live client
/// uses. Offline every tap is aligned with the mic (the engine's latency is compensated).
///
/// - Realtime: never (the offline driver is the producer and may wait for the writer).
final class OfflineTaps {
    private let recordings: [(tap: Tap, recording: Recording)]
    private let mic: [Float]
    private let referenceLeft: [Float]
    private let referenceRight: [Float]
    private let referenceMono: [Float]
    /// The karaoke tap's two channels (voice is added as it comes): the backing at its gain.
    private let karaokeBacking: [[Float]]
    private let karaokeVoiceGain: Float

    /// Checks every tap's path and format and opens its file before any audio is processed.
    /// `backing` (L/R, mic-aligned, as played) and `karaokeGains` (linear) make the karaoke tap.
    init(
        _ taps: [(tap: Tap, path: String)], inputs: OfflineInputs, force: Bool, backing: [[Float]] = [],
        karaokeGains: (voice: Float, backing: Float) = (1, 1)
    ) throws(HostError) {
        mic = inputs.mic
        karaokeVoiceGain = karaokeGains.voice
        let silence2 = [[Float]](repeating: [Float](repeating: 0, count: inputs.mic.count), count: 2)
        karaokeBacking = taps.contains { $0.tap == .karaoke }
            ? (backing.isEmpty ? silence2 : backing).map { $0.map { karaokeGains.backing * $0 } }
            : []
        let silence = [Float](repeating: 0, count: inputs.mic.count)
        referenceLeft = inputs.reference.first ?? silence
        referenceRight = inputs.reference.count > 1 ? inputs.reference[1] : referenceLeft
        referenceMono = inputs.reference.count > 1 ? zip(referenceLeft, referenceRight).map { 0.5 * ($0 + $1) } : referenceLeft
        var opened: [(Tap, Recording)] = []
        for (tap, path) in taps {
            if tap == .monitor {
                throw HostError(.usage, "--record monitor=\(path): the monitor mix exists only in `voicerack run`")
            }
            if tap == .reference && inputs.reference.isEmpty {
                throw HostError(.usage, "--record reference=\(path): this run has no reference (--ref, with a preset that cancels echo)")
            }
            try OfflineProcessor.checkOutputPath(path, force: force)
            guard let format = AudioFormat.forPath(path)?.suited(toChannels: tap.channels) else {
                throw HostError(.usage, "--record \(tap.rawValue)=\(path): cannot tell the format from the extension; use .wav, .flac, .w64, .rf64, .caf, .ogg, .opus or .mp3")
            }
            do {
                try format.validate(channels: tap.channels, sampleRate: inputs.sampleRate)
                let spec = RecordingSpec(path: path, format: format, sampleRate: inputs.sampleRate, channels: tap.channels)
                opened.append((tap, try Recording(spec: spec)))
            } catch let error as AudioFileError {
                throw HostError(.usage, "--record \(tap.rawValue)=\(path): \(error.description)")
            } catch {
                throw HostError(.cannotCreate, "\(error)")
            }
        }
        recordings = opened
    }

    /// Writes the taps for output samples `offset ..< offset + voice.count`.
    func write(voice: UnsafeBufferPointer<Float>, at offset: Int) {
        guard !recordings.isEmpty else { return }
        mic.withUnsafeBufferPointer { m in
            referenceLeft.withUnsafeBufferPointer { l in
                referenceRight.withUnsafeBufferPointer { r in
                    referenceMono.withUnsafeBufferPointer { mono in
                        write(voice: voice.baseAddress!, mic: m.baseAddress! + offset, left: l.baseAddress! + offset,
                              right: r.baseAddress! + offset, mono: mono.baseAddress! + offset, at: offset, frames: voice.count)
                    }
                }
            }
        }
    }

    /// Voice at its gain plus the (already scaled) backing, for output samples `offset ..< offset + n`.
    private func writeKaraoke(voice: UnsafePointer<Float>, at offset: Int, frames n: Int, to recording: Recording) {
        let left = (0..<n).map { karaokeVoiceGain * voice[$0] + karaokeBacking[0][offset + $0] }
        let right = (0..<n).map { karaokeVoiceGain * voice[$0] + karaokeBacking[1][offset + $0] }
        while !recording.input.canAccept(n) { usleep(1_000) }
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                [l.baseAddress!, r.baseAddress!].withUnsafeBufferPointer { recording.input.write($0.baseAddress!, frames: n) }
            }
        }
    }

    private func write(
        voice: UnsafePointer<Float>, mic: UnsafePointer<Float>, left: UnsafePointer<Float>,
        right: UnsafePointer<Float>, mono: UnsafePointer<Float>, at offset: Int, frames n: Int
    ) {
        for (tap, recording) in recordings {
            let channels: [UnsafePointer<Float>]
            switch tap {
            case .voice: channels = [voice]
            case .mic: channels = [mic]
            case .reference: channels = [left, right]
            case .tuning: channels = [mic, mono, voice]
            case .monitor: continue
            case .karaoke:
                writeKaraoke(voice: voice, at: offset, frames: n, to: recording)
                continue
            }
            // The offline producer may wait; the writer then never falls behind and nothing is lost.
            while !recording.input.canAccept(n) { usleep(1_000) }
            channels.withUnsafeBufferPointer { recording.input.write($0.baseAddress!, frames: n) }
        }
    }

    /// Finishes every recording; returns a line per tap, or the first error.
    func finish() throws(HostError) -> [String] {
        var lines: [String] = []
        for (tap, recording) in recordings {
            recording.finishProducer()
            let result = recording.waitUntilFinished()
            if let error = result.error { throw HostError(.io, error.description) }
            lines.append("recorded \(tap.rawValue) to \(result.files.joined(separator: ", ")) (\(recording.spec.format), \(tap.channels) ch, \(result.status.framesWritten) frames)")
        }
        return lines
    }
}
