import Foundation
import VoiceFiles
import VoiceTestSupport

/// A 12 s echo scenario at 48 kHz for the live-path tests, generated (never read from /tmp) and
/// written as mono float WAVs.
///
/// The far end is speech-like (pauses at 3–4, 7–8 and 11–12 s) played into a room with a 60 ms
/// bulk delay and a 150 ms tail; the mic hears its echo, a noise floor at −50 dBFS and, from 8.5
/// to 10.5 s, a near-end talker (double talk). All times are seconds, lengths samples.
///
/// Why that much noise: with a near-silent mic the engine's far-end-only output sits at −75…−80
/// dBFS, where small differences in the preprocessor's state move ERLE by many dB between runs
/// that differ only in how much silence came before the scenario (as it does live, where the
/// engine runs before the peer starts). With a realistic noise floor the suppressed noise sets
/// the output level. What remains moves far-end-only ERLE by about 1 dB with the block phase at
/// which the scenario starts (see LiveEchoTests).
///
/// - Realtime: never; test thread.
struct EchoScenarioFiles {
    static let sampleRate = 48_000
    static let seconds = 12.0

    let mic: [Float]
    let reference: [Float]
    /// The near-end talker alone (zero outside its span).
    let near: [Float]
    let micPath: String
    let referencePath: String

    /// Far end only, after the canceller has converged and 0.5 s after the far end resumes at 4 s
    /// (its onset transient also depends on the block phase): where ERLE is measured.
    static let farEndOnly = seconds(4.5)..<seconds(7.0)
    /// The near-end talker's span (double talk with the far end).
    static let nearEndSpan = seconds(8.5)..<seconds(10.5)

    static func seconds(_ s: Double) -> Int { Int(s * Double(sampleRate)) }

    /// Generates the signals and writes `mic.wav` and `ref.wav` into `folder`.
    init(in folder: TemporaryFolder, seed: UInt64 = 7) throws {
        let rate = Self.sampleRate
        let n = Self.seconds(Self.seconds)
        reference = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: seed)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.06, tail: 0.15, gain: 0.5, seed: seed + 100)
        let echo = Signals.convolve(reference, room)
        let talker = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: seed + 200)
        near = talker.indices.map { Self.nearEndSpan.contains($0) ? talker[$0] : 0 }
        mic = Signals.mix(echo, near, Signals.whiteNoise(count: n, rms: 0.003, seed: seed + 300))
        micPath = folder.file("mic.wav")
        referencePath = folder.file("ref.wav")
        try Self.write(mic, to: micPath)
        try Self.write(reference, to: referencePath)
    }

    /// Writes `samples` as a mono 32-bit float WAV at the scenario's rate.
    static func write(_ samples: [Float], to path: String) throws {
        let writer = try AudioFileWriter(
            path: path, format: try AudioFormat(parsing: "wav:float"), sampleRate: sampleRate, channels: 1)
        try writer.write(samples)
        try writer.close()
    }
}
