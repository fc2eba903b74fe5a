import Testing
import VoiceSpeex
import VoiceTestSupport

@Suite("speexdsp edge")
struct SpeexTests {
    @Test(
        "the resampler keeps length and level and introduces no delay",
        arguments: [(48_000, 16_000), (16_000, 48_000), (44_100, 48_000)])
    func resampler(from: Int, to: Int) throws {
        let x = Signals.sine(count: from * 2, frequency: 440, sampleRate: from, amplitude: 0.5)
        let y = try SpeexResampler.resample(x, from: from, to: to)
        #expect(y.count == to * 2)
        let expected = Signals.sine(count: to * 2, frequency: 440, sampleRate: to, amplitude: 0.5)
        let middle = (to / 2)..<(to * 3 / 2)
        #expect(abs(Measure.levelDB(y, middle) - Measure.levelDB(expected, middle)) < 0.2)
        #expect(Measure.lag(of: Array(y[middle]), relativeTo: Array(expected[middle]), maxLag: 20) == 0)
    }

    @Test("with both stages off the processor is the null twin: output = input")
    func nullTwin() {
        var settings = SpeexSettings()
        settings.echoCancellation = false
        settings.preprocess = false
        settings.frameSize = 160
        let processor = SpeexVoiceProcessor(settings: settings, sampleRate: 16_000)
        #expect(processor.latency == 0)
        var mic = (0..<160).map { Int16($0 * 100 - 8_000) }
        var ref = [Int16](repeating: 0, count: 160)
        var out = [Int16](repeating: 0, count: 160)
        mic.withUnsafeMutableBufferPointer { m in
            ref.withUnsafeMutableBufferPointer { r in
                out.withUnsafeMutableBufferPointer { o in
                    processor.cancel(mic: m.baseAddress!, reference: r.baseAddress!, output: o.baseAddress!)
                    processor.preprocess(o.baseAddress!)
                }
            }
        }
        #expect(out == mic)
    }

    @Test("the preprocessor's latency is one frame")
    func preprocessorLatency() {
        var settings = SpeexSettings()
        settings.frameSize = 320
        #expect(SpeexVoiceProcessor(settings: settings, sampleRate: 32_000).latency == 320)
    }
}
