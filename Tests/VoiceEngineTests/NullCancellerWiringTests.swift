import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEngine
@testable import VoicePresets

/// The engine runs the echo canceller's null twin where there is nothing to cancel and where
/// speexdsp cannot be set up.
@Suite("The null echo canceller in the engine")
struct NullCancellerWiringTests {
    static func preset(_ name: String) throws -> EngineConfiguration {
        let presets = try #require(PresetLibrary.shippedPresetsAbove(URL(fileURLWithPath: #filePath)))
        return try PresetLibrary(directories: [presets]).load(name).configuration
    }

    static let mic = Signals.speechLike(count: 48_000, sampleRate: 48_000, rms: 0.1, seed: 71)
    static let far = Signals.speechLike(count: 48_000, sampleRate: 48_000, rms: 0.1, seed: 72)

    @Test("raw gets the null twin, and its output is the one speexdsp's bypass gave: the mic, sample for sample")
    func rawRunsTheNullTwin() throws {
        let raw = try Self.preset("raw")
        let engine = try VoiceEngine(configuration: raw, sampleRate: 48_000, blockSize: 256)
        let isNull = engine.state.pointee.canceller.isNull
        #expect(isNull)
        // Its voice decision is every frame: the status shows none.
        #expect(!engine.detectsVoice)
        #expect(engine.notes.isEmpty)
        let output = OfflineRenderer(engine: engine).process(mic: Self.mic, reference: [Self.far])

        // Ducking reads the near-end decision, so the engine keeps speexdsp's canceller (in its
        // bypass) for it; ducking changes the speakers only, so the voice is the same.
        var ducked = raw
        ducked.ducking = true
        let bypass = try VoiceEngine(configuration: ducked, sampleRate: 48_000, blockSize: 256)
        let bypassIsNull = bypass.state.pointee.canceller.isNull
        #expect(!bypassIsNull && bypass.detectsVoice)
        #expect(OfflineRenderer(engine: bypass).process(mic: Self.mic, reference: [Self.far]) == output)
        #expect(output == Self.mic)
    }

    @Test(
        "presets with a canceller or a preprocessor keep speexdsp's", arguments: ["echo-cancel", "podcast", "karaoke"])
    func speexWhereItWorks(name: String) throws {
        let c = try Self.preset(name)
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let isNull = engine.state.pointee.canceller.isNull
        #expect(!isNull && engine.detectsVoice)
    }

    @Test("speexdsp failing to set up falls back to the null twin, says so, and the voice passes through")
    func setupFailureFallsBack() throws {
        let c = try Self.preset("echo-cancel")
        let engine = try VoiceEngine(
            configuration: c, sampleRate: 48_000, blockSize: 256, referenceChannels: 1, pluginHost: nil,
            speexSetup: .failing, learnedStandIn: nil)
        let isNull = engine.state.pointee.canceller.isNull
        #expect(isNull)
        #expect(engine.processingLatency == 0)
        let note = try #require(engine.notes.first)
        #expect(note.contains("could not be set up"), "\(note)")
        let output = OfflineRenderer(engine: engine).process(mic: Self.mic, reference: [Self.far])
        #expect(output.count == Self.mic.count)
        #expect(output.allSatisfy { $0.isFinite })
        #expect(engine.health().estimatedDelay == -1)
    }
}
