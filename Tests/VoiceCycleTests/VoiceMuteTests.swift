import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceTestSupport

/// VoiceProcessingIO's mute through the one render cycle: voice_out glides to silence without a
/// click, talking into the mute is reported within 300 ms, and far-end echo alone never is.
@Suite("Voice mute and muted-talker detection")
struct VoiceMuteTests {
    static let rate = 48_000, block = 256

    /// Renders `mic` and `far` through a cycle of `preset`, muting at block `muteAt` (nil: never);
    /// returns voice_out and the first block at which a muted-talker event was counted.
    static func run(
        preset: String, mic: [Float], far: [Float], muteAt: Int?
    ) throws -> (voice: [Float], firstEventBlock: Int?, events: Int) {
        let configuration = try PresetLibrary.standard(pluginHost: nil).load(preset).configuration
        let host = try CycleHost(configuration: configuration, sampleRate: rate, blockSize: block)
        let out = (0..<5).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { out.forEach { $0.deallocate() } }
        var voice: [Float] = []
        var firstEvent: Int?
        let blocks = mic.count / block
        for k in 0..<blocks {
            if k == muteAt { host.setVoiceMuted(true) }
            mic.withUnsafeBufferPointer { m in
                far.withUnsafeBufferPointer { f in
                    let io = CycleIO(
                        mic: m.baseAddress! + k * block, farLeft: f.baseAddress! + k * block,
                        farRight: f.baseAddress! + k * block, voice: out[0], speakerLeft: out[1], speakerRight: out[2],
                        monitorLeft: out[3], monitorRight: out[4], frames: block)
                    host.cycle.pointee.render(io)
                }
            }
            voice += UnsafeBufferPointer(start: out[0], count: block)
            if firstEvent == nil && host.status().mutedTalkEvents > 0 { firstEvent = k }
        }
        return (voice, firstEvent, host.status().mutedTalkEvents)
    }

    @Test("mute glides voice_out to silence in 20 ms with no step larger than the glide's; silent after")
    func muteGlides() throws {
        let n = Self.rate * 2
        let mic = [Float](repeating: 0.5, count: n)  // DC: the output is the gain itself
        let (voice, _, _) = try Self.run(preset: "raw", mic: mic, far: [Float](repeating: 0, count: n), muteAt: 100)
        let at = 100 * Self.block
        #expect(abs(voice[at - 1] - 0.5) < 1e-6)
        let glide = Self.rate / 50
        #expect(voice[(at + glide)...].allSatisfy { $0 == 0 }, "silent once the 20 ms glide is over")
        let steps = (at..<(at + glide)).map { abs(voice[$0] - voice[$0 - 1]) }
        #expect(steps.max()! <= 0.5 / Float(glide) * 1.01, "largest step \(steps.max()!)")
    }

    @Test("near-end speech while muted raises the event within 300 ms of its start")
    func talkingWhileMutedIsReported() throws {
        let n = Self.rate * 6
        var near = [Float](repeating: 0, count: n)
        let speech = Signals.speechLike(count: Self.rate * 3, sampleRate: Self.rate, rms: 0.05, seed: 41)
        let start = Self.rate * 2
        for i in 0..<speech.count { near[start + i] = speech[i] }
        let noise = Signals.whiteNoise(count: n, rms: 0.0005, seed: 42)
        let mic = Signals.mix(near, noise)
        let result = try Self.run(preset: "echo-cancel", mic: mic, far: [Float](repeating: 0, count: n), muteAt: 10)
        let event = try #require(result.firstEventBlock, "no event")
        let delayMs = Double(event * Self.block - start) * 1000 / Double(Self.rate)
        print(
            "muted talker: event \(String(format: "%.0f", delayMs)) ms after the speech started; \(result.events) event(s)"
        )
        #expect(delayMs >= 0 && delayMs <= 300)
        #expect(result.voice[(Self.rate / 2)...].allSatisfy { $0 == 0 }, "voice_out silent while muted")
    }

    @Test("30 s of far-end speech and its echo alone, muted: no muted-talker event")
    func echoAloneIsNotTalking() throws {
        let n = Self.rate * 30
        let far = Signals.speechLike(count: n, sampleRate: Self.rate, rms: 0.1, seed: 43)
        let echo = Signals.convolve(
            far, Signals.roomImpulse(sampleRate: Self.rate, bulkDelay: 0.05, tail: 0.08, gain: 0.5, seed: 44))
        let mic = Signals.mix(Array(echo.prefix(n)), Signals.whiteNoise(count: n, rms: 0.0005, seed: 45))
        let result = try Self.run(preset: "echo-cancel", mic: mic, far: far, muteAt: 0)
        #expect(result.events == 0, "\(result.events) event(s), the first at block \(result.firstEventBlock ?? -1)")
    }
}
