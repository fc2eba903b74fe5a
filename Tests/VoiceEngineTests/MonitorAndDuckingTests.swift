import Testing
import VoiceEngine
import VoiceTestSupport

/// Drives the live cycle's three engine calls (as the JACK callback does) over in-memory signals.
struct LiveCycle {
    let engine: VoiceEngine
    var speakerLeft: [Float] = []
    var monitorLeft: [Float] = []
    var monitorRight: [Float] = []
    var voice: [Float] = []

    init(_ configuration: EngineConfiguration, rate: Int = 16_000, block: Int = 256) throws {
        engine = try VoiceEngine(configuration: configuration, sampleRate: rate, blockSize: block, referenceChannels: 2)
    }

    /// Runs with the room in the loop: the mic hears `near` plus what the speakers actually
    /// played (ducked or not) through `room`, as in life.
    mutating func run(near: [Float], far: [Float], room: [(offset: Int, gain: Float)]) {
        let b = engine.plan.blockSize
        var played: [Float] = []
        var sr = [Float](repeating: 0, count: b), sl = sr, v = sr, ml = sr, mr = sr, mic = sr
        for start in stride(from: 0, to: near.count - b + 1, by: b) {
            let state = engine.state
            far.withUnsafeBufferPointer { f in
                state.pointee.feedSpeakers(
                    farLeft: f.baseAddress! + start, farRight: f.baseAddress! + start, speakerLeft: &sl,
                    speakerRight: &sr, frames: b)
            }
            played += sl
            for i in 0..<b {
                let t = start + i
                var echo: Float = 0
                for tap in room where tap.offset <= t { echo += tap.gain * played[t - tap.offset] }
                mic[i] = near[t] + echo
            }
            state.pointee.render(mic: mic, farLeft: sl, farRight: sr, voice: &v, frames: b)
            state.pointee.mixMonitor(
                voice: v, speakerLeft: sl, speakerRight: sr, monitorLeft: &ml, monitorRight: &mr, frames: b)
            speakerLeft += sl
            voice += v
            voiced.append(engine.health().voiceActive)
        }
    }

    var voiced: [Bool] = []

    mutating func run(mic: [Float], far: [Float]) {
        let b = engine.plan.blockSize
        var sl = [Float](repeating: 0, count: b), sr = sl, v = sl, ml = sl, mr = sl
        for start in stride(from: 0, to: mic.count - b + 1, by: b) {
            mic.withUnsafeBufferPointer { m in
                far.withUnsafeBufferPointer { f in
                    let state = engine.state
                    state.pointee.feedSpeakers(
                        farLeft: f.baseAddress! + start, farRight: f.baseAddress! + start, speakerLeft: &sl,
                        speakerRight: &sr, frames: b)
                    state.pointee.render(mic: m.baseAddress! + start, farLeft: sl, farRight: sr, voice: &v, frames: b)
                    state.pointee.mixMonitor(
                        voice: v, speakerLeft: sl, speakerRight: sr, monitorLeft: &ml, monitorRight: &mr, frames: b)
                }
            }
            speakerLeft += sl
            voice += v
            monitorLeft += ml
            monitorRight += mr
        }
    }
}

@Suite("Monitor and ducking")
struct MonitorAndDuckingTests {
    @Test("the dry monitor is the mic with no added latency, at the set level and pan, plus the far end")
    func dryMonitor() throws {
        var c = EngineConfiguration.echoCancel
        c.highPassHz = 0
        c.monitor = true
        c.monitorVoicePan = 1  // all right
        c.monitorFarDB = -6
        var live = try LiveCycle(c)
        let mic = Signals.whiteNoise(count: 16_000, rms: 0.1, seed: 51)
        let far = Signals.whiteNoise(count: 16_000, rms: 0.1, seed: 52)
        live.run(mic: mic, far: far)
        let farGain = Float(0.501_187_2)
        // Right: the mic sample of the same block (no latency at all), plus the far end at -6 dB.
        let right = zip(zip(live.monitorRight, mic), far).map { abs($0.0 - ($0.1 + farGain * $1)) }.max() ?? 1
        #expect(right < 1e-5)
        // Left: only the far end (pan right), to within float rounding of cos(π/2).
        let left = zip(live.monitorLeft, far).map { abs($0 - farGain * $1) }.max() ?? 1
        #expect(left < 1e-5)
    }

    @Test("the monitor is silent when off")
    func monitorOff() throws {
        var live = try LiveCycle(.echoCancel)
        live.run(
            mic: Signals.whiteNoise(count: 4_096, rms: 0.1, seed: 53),
            far: Signals.whiteNoise(count: 4_096, rms: 0.1, seed: 54))
        #expect(live.monitorLeft.allSatisfy { $0 == 0 } && live.monitorRight.allSatisfy { $0 == 0 })
    }

    @Test("ducking lowers speaker_out by the set depth within the attack while the near end talks")
    func ducking() throws {
        var c = EngineConfiguration.echoCancel
        c.ducking = true
        c.duckingDepthDB = -12
        c.duckingAttackMilliseconds = 50
        c.duckingReleaseMilliseconds = 500
        let rate = 16_000
        let n = rate * 12
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 55)  // the far end talks throughout
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.03, tail: 0.05, gain: 0.3, seed: 56)
        // The near end joins at 6 s, loud and continuous.
        let talker =
            [Float](repeating: 0, count: rate * 6) + Signals.whiteNoise(count: n - rate * 6, rms: 0.1, seed: 57)
        // A room is never silent: -60 dBFS of mic noise (the double-talk detector needs a floor).
        let near = Signals.mix(talker, Signals.whiteNoise(count: n, rms: 0.001, seed: 58))
        var live = try LiveCycle(c)
        live.run(near: near, far: far, room: room)
        let gains = zip(live.speakerLeft, far).map { $1 == 0 ? 1 : $0 / $1 }
        // Far end alone (after the canceller has learned the echo path): no ducking.
        let alone = gains[(rate * 3)..<(rate * 6)]
        #expect(
            alone.filter { $0 > 0.99 }.count > alone.count * 9 / 10,
            "ducked \(alone.filter { $0 <= 0.99 }.count) of \(alone.count) far-alone samples")
        // Near end talking: down to -12 dB (0.251) ...
        let ducked = gains[(rate * 8)..<(rate * 11)]
        #expect(abs((ducked.min() ?? 1) - 0.251) < 0.01)
        #expect(ducked.filter { $0 < 0.26 }.count > ducked.count / 2)
        // ... and the way down takes the attack time (50 ms = 800 samples), not more.
        let firstBelowOne = try #require(gains.indices.first { $0 >= rate * 6 && gains[$0] < 0.999 })
        let reached = try #require(gains.indices.first { $0 > firstBelowOne && gains[$0] < 0.252 })
        #expect(abs((reached - firstBelowOne) - 800) < 64, "took \(reached - firstBelowOne) samples")
    }
}
