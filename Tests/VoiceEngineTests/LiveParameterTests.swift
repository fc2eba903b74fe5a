import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEngine

/// Parameter changes sent as messages while the engine runs: they glide to the new value, with no
/// sample-to-sample step larger than the glide allows.
@Suite("Live parameter changes")
struct LiveParameterTests {
    static let rate = 48_000, block = 128

    /// Renders `mic` through `engine` block by block, posting `messages` before block `at`;
    /// returns the voice and the monitor's left channel.
    static func render(
        _ engine: VoiceEngine, _ mic: [Float], post messages: [ControlMessage], at: Int
    ) -> (voice: [Float], monitor: [Float]) {
        var voice: [Float] = [], monitor: [Float] = []
        var v = [Float](repeating: 0, count: block), sl = v, sr = v, ml = v, mr = v
        let zeros = v
        for k in 0..<(mic.count / block) {
            if k == at { engine.post(messages) }
            mic.withUnsafeBufferPointer { m in
                let state = engine.state
                state.pointee.feedSpeakers(
                    farLeft: zeros, farRight: zeros, speakerLeft: &sl, speakerRight: &sr, frames: block)
                state.pointee.render(
                    mic: m.baseAddress! + k * block, farLeft: sl, farRight: sr, voice: &v, frames: block)
                state.pointee.mixMonitor(
                    voice: v, speakerLeft: sl, speakerRight: sr, monitorLeft: &ml, monitorRight: &mr, frames: block)
            }
            voice += v
            monitor += ml
        }
        return (voice, monitor)
    }

    /// Largest |y[i] − y[i−1]| over `range`.
    static func maxStep(_ y: [Float], _ range: Range<Int>) -> Float {
        range.dropFirst().reduce(0) { max($0, abs(y[$1] - y[$1 - 1])) }
    }

    @Test("output gain −12 dB mid-stream: the level glides there in 10 ms with no step beyond the glide's")
    func outputGainGlides() throws {
        let engine = try VoiceEngine(configuration: EngineConfiguration(), sampleRate: Self.rate, blockSize: Self.block)
        // DC at 0.5: the output is the gain itself (×0.5), so every step is the glide's.
        let mic = [Float](repeating: 0.5, count: Self.rate / 2)
        var target = EngineConfiguration()
        target.outputGainDB = -12
        let update = EngineConfiguration().liveUpdate(to: target)
        #expect(update.messages == [ControlMessage(EngineControl.outputGain.name, -12)])
        #expect(!update.needsRestart)
        let at = 100
        let (voice, _) = Self.render(engine, mic, post: update.messages, at: at)
        let change = at * Self.block
        let glide = Self.rate / 100
        let after = 20 * log10(Double(voice[change + glide + 10]) / 0.5)
        let before = 20 * log10(Double(voice[change - 1]) / 0.5)
        // The glide is linear in gain over 480 samples: each step is (1 − 0.251)·0.5/480.
        let allowed: Float = (1 - 0.2512) * 0.5 / Float(glide) * 1.01
        let step = Self.maxStep(voice, (change - 100)..<(change + 2 * glide))
        print(
            "live output gain: \(String(format: "%.2f", before)) → \(String(format: "%.2f", after)) dB, max step \(step) (glide allows \(allowed))"
        )
        #expect(abs(before) < 0.01)
        #expect(abs(after + 12) < 0.01)
        #expect(step <= allowed)
        #expect(engine.health().parametersApplied == 1)
    }

    @Test(
        "monitor master −6 dB and a compressor threshold change glide; the compressor's slot is addressed by chain position"
    )
    func monitorAndChainSlot() throws {
        var c = EngineConfiguration()
        c.monitor = true
        c.monitorFeedbackGuard = false
        c.effectOrder = [.gate, .compressor]
        c.effectValues[EffectKind.gate.index][5] = 1  // gate bypassed
        let engine = try VoiceEngine(configuration: c, sampleRate: Self.rate, blockSize: Self.block)
        let mic = Signals.sine(count: Self.rate, frequency: 500, sampleRate: Self.rate, amplitude: 0.5)
        var target = c
        target.monitorMasterDB = -6
        target.effectValues[EffectKind.compressor.index][0] = -30  // threshold_dbfs, from −20
        let update = c.liveUpdate(to: target)
        #expect(update.messages.contains(ControlMessage("compressor.threshold_dbfs", -30)))
        let at = 150
        let (voice, monitor) = Self.render(engine, mic, post: update.messages, at: at)
        let change = at * Self.block
        let early = (change - 4_800)..<change, late = (mic.count - 4_800)..<mic.count
        let monitorDrop = Measure.levelDB(monitor, late) - Measure.levelDB(monitor, early)
        let voiceDrop = Measure.levelDB(voice, late) - Measure.levelDB(voice, early)
        // The sine is −9 dBFS peak: 11 dB over −20, 21 dB over −30; at 4:1 with a 6 dB knee the
        // extra 10 dB over threshold cost 7.5 dB more reduction.
        print(
            "live monitor master: \(String(format: "%.2f", monitorDrop)) dB; compressor threshold −20 → −30: voice \(String(format: "%.2f", voiceDrop)) dB"
        )
        #expect(abs(monitorDrop + 6) < 0.05)
        #expect(abs(voiceDrop + 7.5) < 0.5)
        let allowed = Self.maxStep(mic, 0..<4_800) * 1.05  // the sine's own steepest step, at unity
        #expect(Self.maxStep(monitor, (change - 480)..<(change + 4_800)) <= allowed)
    }

    @Test("changes that shape the engine are reported as needing a restart, the live part still goes")
    func restartNeeded() {
        var c = EngineConfiguration()
        c.effectOrder = [.compressor]
        var target = c
        target.frameMilliseconds = 20
        target.tailMilliseconds = 300
        target.outputGainDB = 6
        let update = c.liveUpdate(to: target)
        #expect(update.needsRestart)
        #expect(update.messages == [ControlMessage("output.gain_db", 6)])
        #expect(update.reached.outputGainDB == 6 && update.reached.frameMilliseconds == c.frameMilliseconds)
        // A unit not in the chain: remembered, no message.
        target = c
        target.effectValues[EffectKind.reverb.index][2] = 0.5
        let off = c.liveUpdate(to: target)
        #expect(off.messages.isEmpty && !off.needsRestart)
    }

    @Test("a full ring refuses messages and counts them; messages for a unit the chain lacks are counted as rejected")
    func fullRingAndRejected() throws {
        let engine = try VoiceEngine(configuration: EngineConfiguration(), sampleRate: Self.rate, blockSize: Self.block)
        let flood = [ControlMessage](repeating: ControlMessage("reverb.wet", 1), count: 600)
        let queued = engine.post(flood)
        #expect(queued == 512)
        #expect(engine.droppedMessages == 88)
        _ = Self.render(engine, [Float](repeating: 0, count: Self.block * 10), post: [], at: -1)
        #expect(engine.health().parametersRejected == 512)
        #expect(engine.health().parametersApplied == 0)
    }

    @Test("messages are addressed by name: the same message reaches the compressor whatever its slot")
    func namesNotPositions() throws {
        var drops: [Double] = []
        for order in [[EffectKind.gate, .compressor], [.compressor, .gate]] {
            var c = EngineConfiguration()
            c.effectOrder = order
            c.effectValues[EffectKind.gate.index][5] = 1  // gate bypassed
            let engine = try VoiceEngine(configuration: c, sampleRate: Self.rate, blockSize: Self.block)
            let mic = Signals.sine(count: Self.rate, frequency: 500, sampleRate: Self.rate, amplitude: 0.5)
            let at = 150
            let (voice, _) = Self.render(engine, mic, post: [ControlMessage("compressor.threshold_dbfs", -30)], at: at)
            let change = at * Self.block
            drops.append(
                Measure.levelDB(voice, (mic.count - 4_800)..<mic.count)
                    - Measure.levelDB(voice, (change - 4_800)..<change))
            #expect(engine.health().parametersApplied == 1 && engine.health().parametersRejected == 0)
        }
        // 7.5 dB more reduction (see above), in either order.
        #expect(abs(drops[0] + 7.5) < 0.5 && abs(drops[1] - drops[0]) < 0.1, "\(drops)")
    }

    @Test("every live parameter of a full chain has its own identifier (no hash collision)")
    func identifiersAreUnique() {
        let table = ControlTable(chain: EffectKind.allCases.map(ChainUnit.builtIn))
        defer { table.deallocate() }
        let names =
            [EngineControl.inputGain.name, EngineControl.outputGain.name, EngineControl.unmuteMonitor.name]
            + EffectKind.allCases.flatMap { kind in kind.parameters.map { ControlNames.effect(kind, $0.id) } }
        #expect(table.count >= names.count)
        for name in names { #expect(table.route(for: ParameterID(name)) != nil, "\(name)") }
        #expect(table.route(for: ParameterID("compressor.treshold_dbfs")) == nil)
        #expect(Set(names.map { ParameterID($0) }).count == names.count)
    }
}
