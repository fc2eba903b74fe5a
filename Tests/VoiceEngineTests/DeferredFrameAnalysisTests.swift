import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine
@testable import VoicePresets

/// The post-filter's analysis of a canceller frame run in the cycle after the frame, at blocks
/// of at most half a frame (`DeferredFrameAnalysis`): the same output as run in the frame's own
/// cycle, sample for sample.
@Suite("Deferred frame analysis")
struct DeferredFrameAnalysisTests {
    /// 12 s of far end through a loudspeaker that soft-clips (the speaker curve learns it), into
    /// a room that changes at 6 s (the echo 30 ms later: the delay moves and the canceller is
    /// reset), with a near-end talker in seconds 8–10 (double talk).
    static func scenario(rate: Int) -> (reference: [Float], mic: [Float]) {
        let n = rate * 12
        let reference = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 61)
        let played = Signals.softClipped(reference, drive: 4)
        let before = Signals.convolve(
            played, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.04, tail: 0.06, gain: 0.5, seed: 62))
        let after = Signals.convolve(
            played, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.07, tail: 0.06, gain: 0.5, seed: 63))
        let echo = Array(before.prefix(n / 2)) + Array(after[(n / 2)..<n])
        var near = [Float](repeating: 0, count: n)
        let talker = Signals.speechLike(count: 2 * rate, sampleRate: rate, rms: 0.05, seed: 64)
        for i in 0..<talker.count { near[8 * rate + i] = talker[i] }
        return (reference, Signals.mix(echo, near, Signals.whiteNoise(count: n, rms: 0.0003, seed: 65)))
    }

    /// The shipped echo-cancel preset at `rate` and `block`, the analysis deferred or not.
    static func run(
        _ s: (reference: [Float], mic: [Float]), rate: Int, block: Int, defer deferring: Bool
    ) throws -> (output: [Float], health: HealthFigures, deferred: Bool) {
        let presets = try #require(PresetLibrary.shippedPresetsAbove(URL(fileURLWithPath: #filePath)))
        let c = try PresetLibrary(directories: [presets]).load("echo-cancel").configuration
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: block)
        let planned = engine.state.pointee.canceller.speex!.pointee.defersFrameAnalysis
        if !deferring { engine.state.pointee.canceller.speex!.pointee.defersFrameAnalysis = false }
        let output = OfflineRenderer(engine: engine).process(mic: s.mic, reference: [s.reference])
        return (output, engine.health(), planned)
    }

    @Test(
        "blocks of at most half a frame defer the analysis, and the output is sample-identical to the analysis in the frame's cycle",
        arguments: [(48_000, 64), (48_000, 128), (16_000, 64)])
    func deferredIsIdentical(rate: Int, block: Int) throws {
        let s = Self.scenario(rate: rate)
        let deferred = try Self.run(s, rate: rate, block: block, defer: true)
        let inFrame = try Self.run(s, rate: rate, block: block, defer: false)
        #expect(deferred.deferred)
        let differing = zip(deferred.output, inFrame.output).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        let talk = (8 * rate)..<(10 * rate)
        print(
            String(
                format:
                    "%d Hz, block %d: %d samples differ; speaker drive %.2f; canceller resets %d; ERLE %.1f / %.1f dB",
                rate, block, differing, deferred.health.speakerDrive, deferred.health.cancellerResets,
                Measure.ratioDB(s.mic, deferred.output, 0..<(6 * rate)), Measure.ratioDB(s.mic, deferred.output, talk)))
        #expect(differing == 0)
        // The scenario reaches what the deferred analysis must keep in order: a learned curve
        // (whose drive switches the coherence gain) and a delay move (which resets the canceller).
        #expect(deferred.health.speakerDrive > 0)
        #expect(deferred.health.cancellerResets >= 1)
        #expect(deferred.health.speakerDrive == inFrame.health.speakerDrive)
        #expect(deferred.health.cancellerResets == inFrame.health.cancellerResets)
        // The far-end-alone figure misses at most the last frame's analysis.
        #expect(abs(deferred.health.echoReturnLossEnhancement - inFrame.health.echoReturnLossEnhancement) < 0.05)
    }

    @Test("blocks over half a frame analyse in the frame's cycle", arguments: [256, 1024])
    func largerBlocksDoNotDefer(block: Int) throws {
        let presets = try #require(PresetLibrary.shippedPresetsAbove(URL(fileURLWithPath: #filePath)))
        let c = try PresetLibrary(directories: [presets]).load("echo-cancel").configuration
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: block)
        let defers = engine.state.pointee.canceller.speex!.pointee.defersFrameAnalysis
        #expect(!defers)
    }
}
