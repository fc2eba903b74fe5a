/// The near end joining a far end that talks, for ducking tests: 10 s at 48 kHz, the talker from
/// 5 s on.
///
/// The room: the echo arrives 30 ms and 42 ms after the far end, 16 dB under the talker (white
/// noise, RMS 0.1), over -60 dBFS of room noise (the double-talk detector needs a floor). 16 dB,
/// not 10: with the echo 10 dB under the talker (gains 0.3 and 0.1), echo-cancel's near-end
/// detector missed the talker for whole seconds at a quarter of the start offsets (10 of 40
/// consecutive 256-sample offsets). Where the delay estimate lands first decides how far the
/// canceller has converged by 5 s; at a linear ERLE of 10 dB the talker stands exactly at the
/// detector's 10 dB, and once missed it is learned as echo. A live run starts wherever the test
/// peer's first cycle falls, so that scenario failed now and then.
///
/// - Realtime: never; test threads.
public struct DuckingScenario: Sendable {
    public static let sampleRate = 48_000
    /// Samples: 10 s.
    public static let length = sampleRate * 10
    /// The talker's first sample: 5 s.
    public static let talkStart = sampleRate * 5
    /// What the far end sends (speech-like, RMS 0.1).
    public let far: [Float]
    /// What the microphone hears: the talker, the echo of the unducked far end, the room noise.
    public let mic: [Float]

    public init() {
        let n = Self.length
        far = Signals.speechLike(count: n, sampleRate: Self.sampleRate, rms: 0.1, seed: 63)
        let echo = Signals.convolve(far, [(offset: 1440, gain: 0.15), (offset: 2016, gain: 0.05)])
        let talker =
            [Float](repeating: 0, count: Self.talkStart)
            + Signals.whiteNoise(count: n - Self.talkStart, rms: 0.1, seed: 64)
        mic = Signals.mix(talker, echo, Signals.whiteNoise(count: n, rms: 0.001, seed: 65))
    }

    /// The gain applied to each far-end sample in `speaker` (speaker = far × gain, `lag`
    /// samples later); 1 where the far end is silent.
    public func gains(of speaker: [Float], lag: Int = 0) -> [Float] {
        (0..<Self.length).map { far[$0] == 0 ? 1 : speaker[$0 + lag] / far[$0] }
    }
}
