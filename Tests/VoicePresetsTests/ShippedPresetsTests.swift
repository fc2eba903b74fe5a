import Testing
import VoiceEngine

@testable import VoicePresets

/// The presets in `presets/` load and say what their comments promise.
@Suite struct ShippedPresetsTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()])

    @Test func shipsTheDocumentedPresets() {
        #expect(Set(["echo-cancel", "podcast", "raw", "streaming"]).isSubset(of: library.names()))
    }

    @Test func echoCancel() throws {
        let preset = try library.load("echo-cancel")
        let c = preset.configuration
        #expect(preset.name == "echo-cancel")
        #expect(preset.base == nil)
        #expect(!preset.description.isEmpty)
        #expect(preset.source.hasSuffix("presets/echo-cancel.toml"))
        #expect(c.echoCancellation && c.preprocess && c.leveller)
        #expect(c.tailMilliseconds == 200)
        #expect(c.frameMilliseconds == 8)
        #expect(c.reference == .mono)
        #expect(c.delayMode == .auto)
        #expect(c.delayMilliseconds == 0)
        #expect(c.maximumDelayMilliseconds == 500)
        #expect(c.delayMarginMilliseconds == 10)
        #expect(c.noiseSuppression && c.voiceActivityDetection && !c.dereverb)
        #expect(c.noiseSuppressDB == -20)
        #expect(c.echoSuppressDB == -45)
        #expect(c.echoSuppressActiveDB == -10)
        #expect(c.residualEchoGateDB == -3)
        #expect(c.levellerTargetDBFS == -20)
        #expect(c.levellerMaxGainDB == 12)
        #expect(c.levellerSpeedDBPerSecond == 6)
        #expect(c.highPassHz == 50)
        #expect(c.inputGainDB == 0 && c.outputGainDB == 0)
        #expect(c.needsReference)
    }

    @Test func raw() throws {
        let c = try library.load("raw").configuration
        #expect(!c.echoCancellation && !c.preprocess && !c.leveller)
        #expect(c.highPassHz == 0)
        #expect(c.inputGainDB == 0 && c.outputGainDB == 0)
        #expect(!c.needsReference)
    }

    @Test func podcast() throws {
        let c = try library.load("podcast").configuration
        #expect(!c.echoCancellation)
        #expect(c.preprocess && c.noiseSuppression)
        #expect(c.noiseSuppressDB == -20)
        #expect(c.voiceActivityDetection && !c.dereverb)
        #expect(c.leveller)
        #expect(c.levellerTargetDBFS == -18)
        #expect(c.levellerMaxGainDB == 15)
        #expect(c.highPassHz == 90)
    }

    @Test func streaming() throws {
        let preset = try library.load("streaming")
        let c = preset.configuration
        let echoCancel = try library.load("echo-cancel").configuration
        #expect(preset.base == "echo-cancel")
        // The canceller is echo-cancel's, tuned on the yardstick.
        #expect(c.echoCancellation && c.tailMilliseconds == echoCancel.tailMilliseconds)
        #expect(c.frameMilliseconds == echoCancel.frameMilliseconds && c.echoSuppressDB == echoCancel.echoSuppressDB)
        #expect(c.ducking && c.duckingDepthDB == -10)
        #expect(c.duckingAttackMilliseconds == 50 && c.duckingReleaseMilliseconds == 800)
        #expect(c.effectOrder == [.compressor, .limiter])
        #expect(c.levellerTargetDBFS == -18)
        #expect(!c.monitor)
    }

    @Test func loadsByPathToo() throws {
        let byPath = try library.load(shippedPresetsDirectory() + "/podcast.toml")
        #expect(byPath.name == "podcast")
        #expect(byPath.configuration == (try library.load("podcast")).configuration)
    }

    @Test func summariesDescribeEveryPreset() {
        let summaries = library.summaries()
        #expect(summaries.map(\.name) == library.names())
        for summary in summaries {
            #expect(!summary.description.isEmpty && !summary.description.hasPrefix("(invalid"), "\(summary.name)")
            #expect(summary.source.hasSuffix("/\(summary.name).toml"))
        }
    }
}
