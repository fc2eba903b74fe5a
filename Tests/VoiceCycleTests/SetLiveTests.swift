import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceTestSupport

/// `CycleHost.setLive`: one parameter's change reaches the engine as that parameter's message
/// alone, sounds exactly as the whole-configuration path did, and a parameter declared as needing
/// a restart is refused with nothing changed.
@Suite("One live parameter through the cycle")
struct SetLiveTests {
    static let rate = 48_000, block = 256

    /// A host of `preset` with the chain `chain`, and a renderer of `blocks` blocks of `mic`
    /// (a far end of silence) that returns voice_out.
    static func host(_ preset: String, chain: [ChainUnit]) throws -> CycleHost {
        var configuration = try PresetLibrary.standard(pluginHost: nil).load(preset).configuration
        configuration.chain = chain
        return try CycleHost(configuration: configuration, sampleRate: rate, blockSize: block)
    }

    static func render(_ host: CycleHost, _ mic: [Float]) -> [Float] {
        let out = (0..<5).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { out.forEach { $0.deallocate() } }
        let far = [Float](repeating: 0, count: block)
        var voice: [Float] = []
        for k in 0..<(mic.count / block) {
            mic.withUnsafeBufferPointer { m in
                far.withUnsafeBufferPointer { f in
                    let io = CycleIO(
                        mic: m.baseAddress! + k * block, farLeft: f.baseAddress!, farRight: f.baseAddress!,
                        voice: out[0], speakerLeft: out[1], speakerRight: out[2], monitorLeft: out[3],
                        monitorRight: out[4], frames: block)
                    host.cycle.pointee.render(io)
                }
            }
            voice += UnsafeBufferPointer(start: out[0], count: block)
        }
        return voice
    }

    @Test("a compressor's threshold and the output gain set one at a time sound as the whole-configuration path")
    func sameSoundAsTheDiff() throws {
        let mic = Signals.speechLike(count: Self.rate, sampleRate: Self.rate, rms: 0.1, seed: 5)
        let half = mic.count / 2 / Self.block * Self.block
        let one = try Self.host("podcast", chain: [.builtIn(.compressor)])
        let whole = try Self.host("podcast", chain: [.builtIn(.compressor)])
        var voiceOne = Self.render(one, Array(mic[..<half]))
        var voiceWhole = Self.render(whole, Array(mic[..<half]))

        let threshold = one.setLive(.effect(.compressor, index: 0), to: -30)
        let gain = one.setLive(.engine(.outputGain), to: -6)
        #expect(threshold.queued == 1 && gain.queued == 1 && !threshold.needsRestart && !gain.needsRestart)
        var wanted = whole.liveConfiguration
        wanted.effectValues[EffectKind.compressor.index][0] = -30
        wanted.outputGainDB = -6
        #expect(whole.applyLive(wanted).queued == 2)
        #expect(one.liveConfiguration == whole.liveConfiguration)

        voiceOne += Self.render(one, Array(mic[half...]))
        voiceWhole += Self.render(whole, Array(mic[half...]))
        #expect(voiceOne == voiceWhole)
        // And the change was heard: against the unchanged preset, 4.75 dB quieter after the set
        // (the 6 dB of output gain reach the compressor after it, which takes part of them back,
        // less the deeper threshold's reduction; a deterministic figure of this input).
        let unchanged = Self.render(try Self.host("podcast", chain: [.builtIn(.compressor)]), mic)
        let ratio = Measure.rms(voiceOne, half..<voiceOne.count) / Measure.rms(unchanged, half..<unchanged.count)
        #expect(abs(20 * log10(ratio) + 4.75) < 0.25, "\(20 * log10(ratio)) dB")
        #expect(Array(voiceOne[..<half]) == Array(unchanged[..<half]))
    }

    @Test("a parameter declared as needing a restart is refused and nothing changes")
    func restartRefused() throws {
        let host = try Self.host("echo-cancel", chain: [])
        let before = host.liveConfiguration
        let result = host.setLive(.engine(.tail), to: 500)
        #expect(result.needsRestart && result.queued == 0 && result.dropped == 0)
        #expect(host.liveConfiguration == before)
    }
}
