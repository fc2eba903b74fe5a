import Foundation
import Testing
import VoiceEngine

@testable import VoicePresets

/// The presets in `presets/` load and say what their comments promise.
@Suite struct ShippedPresetsTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()], pluginHost: lv2Host)

    @Test func shipsTheDocumentedPresets() {
        #expect(
            Set(["echo-cancel", "echo-cancel-speexdsp", "echo-cancel-strong", "podcast", "raw", "streaming", "karaoke"])
                .isSubset(
                    of: library.names()))
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
        #expect(c.suppressor == .voicerack)
        #expect(c.noiseSuppressDB == -22 && c.babbleSuppressDB == -12)
        #expect(c.echoSuppressDB == -45)
        #expect(c.echoSuppressActiveDB == -10)
        #expect(c.residualEchoGateDB == 0)
        #expect(c.residualSuppression == 0)
        #expect(c.coherenceSuppression == 0.2)
        #expect(c.clippingCoherenceSuppression == 0.3)
        #expect(c.leftoverEchoSuppression == 2.2)
        #expect(c.levellerTargetDBFS == -20)
        #expect(c.levellerMaxGainDB == 12)
        #expect(c.levellerSpeedDBPerSecond == 6)
        #expect(c.highPassHz == 50)
        #expect(c.inputGainDB == 0 && c.outputGainDB == 0)
        #expect(c.needsReference)
    }

    /// echo-cancel with a stronger coherence gain and nothing else changed.
    @Test func echoCancelStrong() throws {
        let preset = try library.load("echo-cancel-strong")
        #expect(preset.base == "echo-cancel")
        #expect(!preset.description.isEmpty)
        var c = preset.configuration
        #expect(c.coherenceSuppression == 0.5)
        c.coherenceSuppression = 0.2
        #expect(c == (try library.load("echo-cancel").configuration))
    }

    /// echo-cancel with speexdsp's preprocessor, its noise floor and the residual echo gate it
    /// was tuned with, and nothing else changed.
    @Test func echoCancelSpeexdsp() throws {
        let preset = try library.load("echo-cancel-speexdsp")
        #expect(preset.base == "echo-cancel")
        #expect(!preset.description.isEmpty)
        var c = preset.configuration
        #expect(c.suppressor == .speexdsp && c.noiseSuppressDB == -20 && c.residualEchoGateDB == -1.5)
        c.suppressor = .voicerack
        c.noiseSuppressDB = -22
        c.residualEchoGateDB = 0
        #expect(c == (try library.load("echo-cancel").configuration))
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

    @Test func podcastLV2() throws {
        let preset = try library.load("podcast-lv2")
        let c = preset.configuration
        #expect(preset.base == "podcast")
        #expect(c.chain == [.builtIn(.gate), .plugin("comp"), .builtIn(.deesser), .plugin("peak")])
        #expect(c.plugins["comp"]?.uri == "http://lsp-plug.in/plugins/lv2/compressor_mono")
        // al, kn and mk are LSP's linear gain ports, given in dB.
        let linear = { (decibels: Double) in Float(pow(10, decibels / 20)) }
        #expect(
            c.plugins["comp"]?.values == [
                "al": linear(-26), "cr": 3, "kn": linear(-6), "at": 10, "rt": 150, "mk": linear(3),
            ])
        #expect(c.plugins["peak"]?.uri == "http://gareus.org/oss/lv2/dpl#mono")
        #expect(c.plugins["peak"]?.values == ["threshold": -1, "release": 0.06])
        // The rest is podcast's.
        var plain = try library.load("podcast").configuration
        plain.chain = c.chain
        plain.plugins = c.plugins
        #expect(plain == c)
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

/// The karaoke preset: the canceller works against the backing track, the voice gets reverb, the
/// singer hears the dry voice and the track, and the karaoke tap records both.
@Suite struct KaraokePresetTests {
    let library = PresetLibrary(directories: [shippedPresetsDirectory()], pluginHost: lv2Host)

    @Test func karaoke() throws {
        let preset = try library.load("karaoke")
        let c = preset.configuration
        #expect(!preset.description.isEmpty)
        #expect(c.echoCancellation && c.needsReference)
        #expect(c.tailMilliseconds == 200 && c.frameMilliseconds == 8 && c.reference == .mono && c.delayMode == .auto)
        #expect(c.preprocess && c.noiseSuppression && c.noiseSuppressDB == -12)
        #expect(c.echoSuppressDB == -40 && c.echoSuppressActiveDB == -6 && c.residualEchoGateDB == 0)
        #expect(!c.leveller && !c.ducking)
        #expect(c.effectOrder == [.compressor, .reverb, .limiter])
        let reverb = EffectKind.reverb.parameters.map(\.id)
        #expect(c.effectValues[EffectKind.reverb.index][reverb.firstIndex(of: "mix")!] == 0.2)
        #expect(c.effectValues[EffectKind.reverb.index][reverb.firstIndex(of: "room_size")!] == 0.6)
        #expect(c.monitor && c.monitorSource == .dry && c.monitorFarDB == -6 && c.monitorMasterDB == -3)
        let s = preset.session
        #expect(s.backingFile.isEmpty && s.backingLevelDB == -6 && !s.backingLoop)
        #expect(s.recordingFormat == "flac:pcm24" && s.karaokeVoiceDB == 0 && s.karaokeBackingDB == 0)
        #expect(c.highPassHz == 80)
    }

    @Test("backing.file is taken relative to the preset that names it")
    func backingFileIsRelativeToThePreset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voicerack-backing-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("song-night.toml").path
        try "base = \"karaoke\"\n[backing]\nfile = \"tracks/song.flac\"\nlevel_db = -10\nloop = true\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try library.load(path)
        let s = loaded.session
        #expect(s.backingFile == folder.appendingPathComponent("tracks/song.flac").standardizedFileURL.path)
        #expect(s.backingLevelDB == -10 && s.backingLoop)
        #expect(loaded.configuration.monitor)  // the rest comes from karaoke
    }
}
