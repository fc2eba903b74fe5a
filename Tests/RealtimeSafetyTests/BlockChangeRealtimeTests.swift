import CRealtimeCheck
import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceRecorder
import VoiceTestSupport

/// A period that grew before the engine for it was built (the engine is built off the driver's
/// thread after a buffer-size change): the cycle renders it in pieces of the old engine's block,
/// inside the sanitizer's region, and the result is sample-identical to the driver running that
/// many cycles of the old size.
@Suite("Real-time safety: a cycle larger than the engine's block")
struct BlockChangeRealtimeTests {
    @Test(
        "1024-frame cycles through a 64-frame engine (every effect, monitor, ducking, every tap): nothing real-time unsafe, the voice and speakers equal sixteen 64-frame cycles sample for sample"
    )
    func largerCyclesInPieces() throws {
        var configuration = try PresetLibrary.standard(pluginHost: nil).load("echo-cancel").configuration
        configuration.effectOrder = EffectKind.allCases
        configuration.monitor = true
        configuration.ducking = true
        let rate = 48_000, engineBlock = 64, period = 1024
        let pieces = try CycleRig(configuration: configuration, rate: rate, block: engineBlock, referenceChannels: 2)
        let whole = try CycleRig(
            configuration: configuration, rate: rate, block: engineBlock, referenceChannels: 2, cycleFrames: period)
        try whole.record(Tap.allCases)
        let n = rate * 3 / period * period
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 41)
        let near = Signals.speechLike(count: n, sampleRate: rate, rms: 0.03, seed: 42)
        let mic = Signals.mix(
            Signals.convolve(
                far, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.05, tail: 0.05, gain: 0.5, seed: 43)),
            near)
        var voicePieces = [Float](repeating: 0, count: n), voiceWhole = voicePieces
        var speakerPieces = voicePieces, speakerWhole = voicePieces
        var cyclesInRegion = 0
        mic.withUnsafeBufferPointer { m in
            far.withUnsafeBufferPointer { f in
                var start = 0
                while start + period <= n {
                    // The first second warms up outside the region.
                    let inRegion = start >= rate
                    if inRegion { rtcheck_enter() }
                    whole.render(mic: m.baseAddress! + start, far: f.baseAddress! + start)
                    if inRegion {
                        rtcheck_exit()
                        cyclesInRegion += 1
                    }
                    for i in 0..<period {
                        voiceWhole[start + i] = whole.voice[i]
                        speakerWhole[start + i] = whole.speakerLeft[i]
                    }
                    for piece in stride(from: start, to: start + period, by: engineBlock) {
                        pieces.render(mic: m.baseAddress! + piece, far: f.baseAddress! + piece)
                        for i in 0..<engineBlock {
                            voicePieces[piece + i] = pieces.voice[i]
                            speakerPieces[piece + i] = pieces.speakerLeft[i]
                        }
                    }
                    start += period
                }
            }
        }
        #expect(cyclesInRegion > 40)
        #expect(whole.framesLost == 0)
        let voiceDifferences = zip(voicePieces, voiceWhole).filter { $0 != $1 }.count
        let speakerDifferences = zip(speakerPieces, speakerWhole).filter { $0 != $1 }.count
        print(
            "1024-frame cycles through a 64-frame engine: \(voiceDifferences) voice and \(speakerDifferences) speaker samples of \(n) differ from 64-frame cycles; voice \(Measure.levelDB(voiceWhole)) dBFS"
        )
        #expect(voiceDifferences == 0)
        #expect(speakerDifferences == 0)
        #expect(Measure.levelDB(voiceWhole) > -60, "the voice is not silent")
        #expect(whole.host.status().silentCycles == 0)
    }
}
