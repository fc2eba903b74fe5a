import Testing
import VoiceEngine
import VoiceTestSupport

/// The re-framing between host blocks and canceller frames must be exact: same length out as in,
/// sample n of the output is sample n of the input, for any block size a JACK server can use.
@Suite("Block-size adaptation")
struct BlockAdaptationTests {
    /// Canceller and preprocessor running but changing nothing: no reference, no denoise, no
    /// residual suppression, no leveller, no filter. What comes out is the mic, delayed by the
    /// engine's latency, which the offline renderer must compensate exactly.
    static var transparent: EngineConfiguration {
        var c = EngineConfiguration()
        c.echoCancellation = true
        c.preprocess = true
        c.noiseSuppression = false
        c.echoSuppressDB = 0
        c.echoSuppressActiveDB = 0
        c.delayMode = .fixed
        return c
    }

    static let blockSizes = [32, 33, 64, 100, 127, 128, 256, 441, 480, 512, 1000, 1023, 1024, 2048, 4095, 4096]

    @Test("output is as long as the input and sample-aligned with it", arguments: blockSizes)
    func alignedAtEveryBlockSize(block: Int) throws {
        let rate = 48_000
        let mic = Signals.whiteNoise(count: rate, rms: 0.05, seed: 7)
        let engine = try VoiceEngine(configuration: Self.transparent, sampleRate: rate, blockSize: block)
        let out = OfflineRenderer(engine: engine).process(mic: mic, reference: [])
        #expect(out.count == mic.count)
        // Compare a window in the middle (the start holds the latency's silence, compensated).
        let window = 20_000..<28_192
        let lag = Measure.lag(of: Array(out[window]), relativeTo: Array(mic[window]), maxLag: 600)
        #expect(lag == 0, "block \(block): frame \(engine.plan.frameSize), latency \(engine.latency)")
        // Not just the right lag: the same signal. speexdsp's DC notch, pre-emphasis and 16-bit
        // frames leave it 19 dB from identical; one sample of misalignment on white noise gives
        // about −3 dB.
        let error = zip(mic[window], out[window]).map { $0 - $1 }
        let snr = Measure.levelDB(Array(mic[window])) - Measure.levelDB(error)
        #expect(snr > 15, "block \(block): output differs from input by \(snr) dB SNR")
    }

    @Test("latency: none from re-framing when the frame divides the block")
    func framingLatency() {
        #expect(FramePlan(blockSize: 256, sampleRate: 48_000).framingLatency == 0)
        #expect(FramePlan(blockSize: 1024, sampleRate: 48_000).frameSize == 512)
        #expect(FramePlan(blockSize: 1024, sampleRate: 48_000).framingLatency == 0)
        // 64 samples at 48 kHz is too short a frame: 4 blocks make one (256), F − B of latency.
        let small = FramePlan(blockSize: 64, sampleRate: 48_000)
        #expect(small.frameSize == 256 && small.framingLatency == 192)
        // A forced 10 ms frame with 256-sample blocks: F − gcd(256, 480) = 448.
        let forced = FramePlan(blockSize: 256, sampleRate: 48_000, frameMilliseconds: 10)
        #expect(forced.frameSize == 480 && forced.framingLatency == 448)
        // An odd, prime block falls back to a 10 ms frame.
        let odd = FramePlan(blockSize: 4093, sampleRate: 48_000)
        #expect(odd.frameSize == 480 && odd.framingLatency == 479)
    }

    @Test("the raw preset's settings pass the mic through untouched, with no latency")
    func bypassIsExact() throws {
        let mic = Signals.whiteNoise(count: 10_000, rms: 0.1, seed: 3)
        let engine = try VoiceEngine(configuration: EngineConfiguration(), sampleRate: 48_000, blockSize: 333)
        #expect(engine.latency == 0)
        let out = OfflineRenderer(engine: engine).process(mic: mic, reference: [])
        #expect(out.count == mic.count)
        #expect(zip(out, mic).allSatisfy { $0 == $1 }, "bypass changed the samples")
    }

    @Test("non-finite and clipped input is replaced and counted, never passed on")
    func badSamplesAreCounted() throws {
        var mic = Signals.whiteNoise(count: 4_800, rms: 0.1, seed: 4)
        mic[100] = .nan
        mic[200] = .infinity
        mic[300] = 1.5
        let engine = try VoiceEngine(configuration: Self.transparent, sampleRate: 48_000, blockSize: 256)
        let out = OfflineRenderer(engine: engine).process(mic: mic, reference: [])
        #expect(out.allSatisfy { $0.isFinite && abs($0) <= 1 })
        let h = engine.health()
        #expect(h.nonFiniteSamples == 2)
        #expect(h.clippedInputSamples == 1)
    }

    @Test("engine settings outside what it supports are refused with the allowed range")
    func refusesUnsupported() {
        #expect(throws: EngineError.unsupportedSampleRate(4_000)) {
            try VoiceEngine(configuration: Self.transparent, sampleRate: 4_000, blockSize: 256)
        }
        #expect(throws: EngineError.unsupportedBlockSize(0)) {
            try VoiceEngine(configuration: Self.transparent, sampleRate: 48_000, blockSize: 0)
        }
        #expect(EngineError.unsupportedSampleRate(4_000).description.contains("8000–96000 Hz"))
    }
}
