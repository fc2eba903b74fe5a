import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

@testable import VoicePresets

/// The shipped echo-cancel preset with ducking on, over `DuckingScenario` as the live test plays
/// it, started at several offsets: a live run starts wherever the test peer's first cycle falls.
@Suite("echo-cancel ducking")
struct EchoCancelDuckingTests {
    /// The repository's echo-cancel preset with ducking to -12 dB in 50 ms, out in 500 ms.
    static func configuration() throws -> EngineConfiguration {
        let presets = try #require(PresetLibrary.shippedPresetsAbove(URL(fileURLWithPath: #filePath)))
        var c = try PresetLibrary(directories: [presets]).load("echo-cancel").configuration
        c.ducking = true
        c.duckingDepthDB = -12
        c.duckingAttackMilliseconds = 50
        c.duckingReleaseMilliseconds = 500
        return c
    }

    /// Offsets in 256-sample periods: 125–127 missed the talker for 3 s when the echo stood only
    /// 10 dB under it (see `DuckingScenario`); 105 and 146 are ones that did not.
    @Test(
        "echo-cancel ducks within 150 ms of a talker 16 dB over the echo and not while the far end is alone, whatever the start offset",
        arguments: [105, 125, 126, 127, 146])
    func ducksAtEveryOffset(periods: Int) throws {
        let scenario = DuckingScenario()
        let silence = [Float](repeating: 0, count: periods * 256)
        var live = try LiveCycle(try Self.configuration(), rate: DuckingScenario.sampleRate, block: 256)
        live.run(mic: silence + scenario.mic, far: silence + scenario.far)
        let speaker = Array(live.speakerLeft.dropFirst(silence.count)) + [Float](repeating: 0, count: 256)
        let gains = scenario.gains(of: speaker)
        let talkStart = DuckingScenario.talkStart, rate = DuckingScenario.sampleRate
        let first = try #require(gains.indices.first { $0 >= talkStart && gains[$0] < 0.999 })
        let talking = gains[(talkStart + rate * 2)..<(DuckingScenario.length - rate / 2)]
        let ducked = talking.filter { $0 < 0.26 }.count
        // Seconds 2-5: the far end alone, with a pause (3-4 s) in it.
        let alone = gains[(rate * 2)..<talkStart]
        let aloneDucked = alone.filter { $0 <= 0.99 }.count
        print(
            "echo-cancel ducking after \(periods) periods: starts \(Double(first - talkStart) * 1000 / Double(rate)) ms after the talker; \(ducked) of \(talking.count) talking samples at -12 dB; \(aloneDucked) far-alone samples ducked"
        )
        #expect(first - talkStart < rate * 15 / 100, "ducking began \(first - talkStart) samples after the talker")
        #expect(ducked > talking.count / 2)
        // Nothing ducks while the far end is alone. Measured 0 at every offset; 24,972 (0.5 s, from
        // the far end's return after its pause) at 105 and 126 periods when voicerack's
        // suppressor started its noise estimate from a window three quarters silent: it then
        // let the room's noise through in the pause, which read as voice.
        #expect(aloneDucked < alone.count / 50, "\(aloneDucked) of \(alone.count) far-alone samples ducked")
    }
}
