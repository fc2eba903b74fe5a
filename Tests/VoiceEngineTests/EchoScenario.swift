import VoiceEngine
import VoiceTestSupport

/// A synthetic echo scenario: far-end speech-like noise played into a sparse room (`roomTail`
/// seconds of reflections), heard by the mic with a bulk delay, plus an optional near-end talker and a little mic noise.
struct EchoScenario {
    let sampleRate: Int
    let reference: [Float]
    let echo: [Float]
    let near: [Float]
    let mic: [Float]

    init(
        sampleRate: Int = 16_000, seconds: Double = 12, bulkDelay: Double = 0.04, echoGain: Float = 0.5,
        roomTail: Double = 0.06, nearEnd: Bool = false, seed: UInt64 = 1
    ) {
        self.sampleRate = sampleRate
        let n = Int(seconds * Double(sampleRate))
        reference = Signals.speechLike(count: n, sampleRate: sampleRate, rms: 0.1, seed: seed)
        let room = Signals.roomImpulse(
            sampleRate: sampleRate, bulkDelay: bulkDelay, tail: roomTail, gain: echoGain, seed: seed + 100)
        echo = Signals.convolve(reference, room)
        near =
            nearEnd
            ? Signals.speechLike(count: n, sampleRate: sampleRate, rms: 0.05, seed: seed + 200)
            : [Float](repeating: 0, count: n)
        let noise = Signals.whiteNoise(count: n, rms: 0.0003, seed: seed + 300)
        mic = Signals.mix(echo, near, noise)
    }

    /// The last `fraction` of the signal (after convergence).
    func tail(_ fraction: Double = 0.4) -> Range<Int> {
        Int(Double(mic.count) * (1 - fraction))..<mic.count
    }

    /// Runs `configuration` over the scenario with `blockSize` blocks; returns the aligned output.
    func run(
        _ configuration: EngineConfiguration, blockSize: Int = 256
    ) throws -> (output: [Float], engine: VoiceEngine) {
        let engine = try VoiceEngine(configuration: configuration, sampleRate: sampleRate, blockSize: blockSize)
        let output = OfflineRenderer(engine: engine).process(mic: mic, reference: [reference])
        return (output, engine)
    }
}

extension EngineConfiguration {
    /// The echo-cancel preset's settings, built in code so engine tests do not depend on files.
    static var echoCancel: EngineConfiguration {
        var c = EngineConfiguration()
        c.highPassHz = 80
        c.echoCancellation = true
        c.tailMilliseconds = 150
        c.preprocess = true
        c.leveller = true
        return c
    }

    /// The linear canceller alone: no preprocessor, leveller or filter.
    static var cancellerOnly: EngineConfiguration {
        var c = EngineConfiguration()
        c.echoCancellation = true
        c.tailMilliseconds = 150
        return c
    }
}
