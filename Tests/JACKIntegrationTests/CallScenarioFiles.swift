import Foundation
import VoiceTestSupport

/// A call on a PipeWire desktop, as files: the far-end talker a call app plays, music another app
/// plays to the speakers, the room's impulse response and what else the microphone hears, at
/// 48 kHz.
///
/// The room is live: the test peer (`--room`) adds to mic_in the echo of what the speakers play
/// (the sound card's monitor), through `room.wav`, so it follows exactly what was played, the far
/// end through voicerack and the music beside it. The far end talks for 12 s with pauses at
/// 3–4, 7–8 and 11–12 s; the peer starts the rest of the mic (a near-end talker 8.5–10.5 s and a
/// noise floor) at the far end's first sound, so that timeline is the far end's; the music plays
/// 12–15.5 s, after the far end has stopped (the music file carries the leading silence, so one
/// `paplay` started with the far end's plays it then). Times are seconds on that timeline.
///
/// - Realtime: never; test thread.
struct CallScenarioFiles {
    static let sampleRate = 48_000
    static let seconds = 16.0
    /// Far end alone, after the canceller has converged: where the echo removed is measured.
    static let farEndOnly = samples(4.5)..<samples(7.0)
    /// The music alone, three seconds after the far end's last word: where the music's level is
    /// compared. For a second or two after the far end stops, the residual-echo suppression
    /// still holds everything a little down (up to a few dB, then about one); that hold is not
    /// what "remote-only" is about, which is that nothing outside the reference is cancelled.
    static let musicOnly = samples(14.0)..<samples(15.5)
    /// The near-end talker: a strong, unique stretch to align the recordings by.
    static let nearEndSpan = samples(8.5)..<samples(10.5)

    static func samples(_ s: Double) -> Int { Int(s * Double(sampleRate)) }

    /// The room's taps (bulk delay 60 ms, tail 150 ms), as the peer applies them.
    let room: [(offset: Int, gain: Float)]
    /// What the mic hears besides the room's echo.
    let nearAndNoise: [Float]
    let farPath: String
    let musicPath: String
    let micPath: String
    let roomPath: String

    /// Generates the signals and writes `far.wav`, `music.wav`, `mic.wav` and `room.wav` into
    /// `folder`.
    init(in folder: TemporaryFolder, seed: UInt64 = 11) throws {
        let n = Self.samples(Self.seconds)
        let far = Signals.speechLike(count: Self.samples(12), sampleRate: Self.sampleRate, rms: 0.1, seed: seed)
        let music = Self.music(count: n, from: Self.samples(12), to: Self.samples(15.5), rms: 0.06)
        room = Signals.roomImpulse(
            sampleRate: Self.sampleRate, bulkDelay: 0.06, tail: 0.15, gain: 0.5, seed: seed + 100)
        var impulse = [Float](repeating: 0, count: (room.map(\.offset).max() ?? 0) + 1)
        for tap in room { impulse[tap.offset] += tap.gain }
        let talker = Signals.speechLike(count: n, sampleRate: Self.sampleRate, rms: 0.05, seed: seed + 200)
        let near = talker.indices.map { Self.nearEndSpan.contains($0) ? talker[$0] : 0 }
        nearAndNoise = Signals.mix(near, Signals.whiteNoise(count: n, rms: 0.003, seed: seed + 300))
        farPath = folder.file("far.wav")
        musicPath = folder.file("music.wav")
        micPath = folder.file("mic.wav")
        roomPath = folder.file("room.wav")
        try EchoScenarioFiles.write(far, to: farPath)
        try EchoScenarioFiles.write(music, to: musicPath)
        try EchoScenarioFiles.write(nearAndNoise, to: micPath)
        try EchoScenarioFiles.write(impulse, to: roomPath)
    }

    /// What the mic heard, on the peer's timeline: the room's echo of `speakers` (what the peer
    /// recorded of the sound card's monitor) plus the rest of the mic.
    func mic(speakers: [Float]) -> [Float] {
        let echo = Signals.convolve(speakers, room)
        return echo.indices.map { echo[$0] + ($0 < nearAndNoise.count ? nearAndNoise[$0] : 0) }
    }

    /// A melody from `from` to `to` (samples), silent elsewhere: 200 ms notes of a tone with two
    /// overtones, eight pitches in turn, RMS `rms` while it plays. Notes change, so no noise
    /// estimate takes it for a steady noise.
    static func music(count: Int, from start: Int, to end: Int, rms: Float) -> [Float] {
        let pitches = [220.0, 277.2, 329.6, 392.0, 440.0, 523.3, 349.2, 293.7]
        let note = samples(0.2)
        let fade = samples(0.01)
        var out = [Float](repeating: 0, count: count)
        for i in start..<min(end, count) {
            let inNote = (i - start) % note
            let f = pitches[((i - start) / note) % pitches.count]
            let t = Double(inNote) / Double(sampleRate)
            let tone = (1...3).reduce(0.0) { $0 + sin(2 * Double.pi * f * Double($1) * t) / Double($1) }
            let ramp = Float(min(1, Double(min(inNote, note - inNote)) / Double(fade)))
            out[i] = Float(tone) * ramp
        }
        let level = Measure.rms(out, start..<min(end, count))
        return level > 0 ? out.map { $0 * rms / level } : out
    }
}
