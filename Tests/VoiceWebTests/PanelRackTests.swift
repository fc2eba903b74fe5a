import Testing
import VoiceControl
import VoicePresets

@testable import VoiceWeb

/// The rack the page draws from `show`'s keys: the chain's units with their own controls only,
/// a live chain order, switches for bypass, labels for the detector, readable names.
@Suite("web panel rack: units in the chain, switches, labels")
struct PanelRackTests {
    /// The session's keys with `chain` as the running order, as `show` gives them.
    func setup(chain: String) throws -> PanelSetup {
        var settings = PresetSettings()
        settings = try PresetEdit.setting(
            "chain.order", .word(chain.isEmpty ? "\"\"" : chain), in: settings, pluginHost: nil)
        return PanelRack.setup(
            PresetEdit.liveKeys(settings), restartKeys: PresetEdit.restartKeys(), presets: [], preset: "raw")
    }

    @Test("only the units in the chain have controls; the chain order is live and keeps its order")
    func onlyChainUnits() throws {
        let s = try setup(chain: "limiter, compressor")
        #expect(s.chain == ["limiter", "compressor"])
        #expect(s.units.count == 7 && s.units.contains("gate"))
        let sections = Set(s.controls.map { String($0.key.prefix { $0 != "." }) })
        #expect(sections.contains("compressor") && sections.contains("limiter"))
        for absent in ["gate", "deesser", "delay", "reverb", "equalizer"] { #expect(!sections.contains(absent)) }
        #expect(s.controls.first { $0.key == "chain.order" }?.live == true)
        #expect(s.controls.first { $0.key == "output.gain_db" } != nil, "keys outside the chain stay")
        let empty = try setup(chain: "")
        #expect(empty.chain.isEmpty)
        #expect(!empty.controls.contains { $0.key.hasPrefix("compressor.") })
    }

    @Test("bypass is a switch sending 1 and 0; the detector a choice labelled peak and RMS")
    func switchesAndChoices() throws {
        let s = try setup(chain: "compressor")
        let bypass = try #require(s.controls.first { $0.key == "compressor.bypass" })
        #expect(bypass.kind == .toggle)
        #expect(bypass.onValue == "1" && bypass.offValue == "0")
        #expect(bypass.live)
        let detector = try #require(s.controls.first { $0.key == "compressor.detector" })
        #expect(detector.kind == .choice)
        #expect(detector.choices == ["0", "1"] && detector.choiceLabels == ["peak", "RMS"])
        let threshold = try #require(s.controls.first { $0.key == "compressor.threshold_dbfs" })
        #expect(threshold.kind == .number && threshold.unit == "dBFS" && threshold.label == "Threshold")
        #expect(s.controls.first { $0.key == "compressor.makeup_db" }?.label == "Make-up gain")
    }

    @Test("labels: the unit of measure comes off the key's name, words are spaced and capitalised")
    func labels() {
        #expect(
            PanelLabel.text(key: "agc.speed_db_per_s") == "Speed")
        #expect(PanelLabel.text(key: "equalizer.band1_q") == "Band 1 Q")
        #expect(PanelLabel.text(key: "monitor.master_db") == "Master")
        #expect(
            PanelLabel.text(key: "echo_canceller.tail_ms") == "Tail")
        #expect(PanelLabel.text(key: "agc.enabled") == "Enabled")
        #expect(PanelLabel.text(key: "compressor.makeup_db", unitName: "Make-up gain.") == "Make-up gain")
        // The declaration's help goes on after the name: what values mean, how a change glides.
        #expect(
            PanelLabel.text(key: "compressor.makeup_db", unitName: "Make-up gain; a change glides over 10 ms.")
                == "Make-up gain")
        #expect(PanelLabel.text(key: "compressor.detector", unitName: "Detector: 0 peak, 1 rms.") == "Detector")
    }

    @Test("the page's request for the stream decodes; without 'on' it is refused")
    func streamRequest() throws {
        #expect(try PanelRequest.decode(#"{"op":"stream","on":true,"id":4}"#) == (.stream(true), 4))
        #expect(throws: PanelError.self) { try PanelRequest.decode(#"{"op":"stream"}"#) }
    }

    @Test("after the far end was heard, a silent far end reads 'far end silent', not 'no far end yet'")
    func farEndWording() {
        var s = LiveSnapshot()
        #expect(HubBackend.meters(s).echoVerdict == "no far end yet")
        s.farActive = true
        #expect(HubBackend.meters(s).echoVerdict == "measuring")
        s.farActive = false
        #expect(HubBackend.meters(s, farHeard: true).echoVerdict == "far end silent")
        s.streamFigures = LiveSnapshot.StreamFigures(
            state: "reconnecting", secondsOnAir: 12, secondsLost: 1.5, reconnects: 2)
        let m = HubBackend.meters(s)
        #expect(m.streamState == "reconnecting" && m.streamReconnects == 2 && m.streamSecondsLost == 1.5)
        #expect(HubBackend.meters(LiveSnapshot()).streamState == "none")
    }
}
