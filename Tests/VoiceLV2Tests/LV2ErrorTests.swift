import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// Plugins, ports and values voicerack must refuse, each with a message naming what is at fault
/// and exit code 65.
@Suite("LV2 errors")
struct LV2ErrorTests {
    @Test("a plugin requiring a feature voicerack lacks is refused before it runs; its twin runs")
    func unsupportedFeature() throws {
        let folder = try TemporaryFolder()
        let testWorld = LV2World(path: try TestLV2Bundle.build(in: folder))
        let configuration = LV2Configuration(
            sampleRate: 48_000, maximumBlockSize: 64, worker: .synchronous)

        let plain = try LV2Unit(
            world: testWorld, uri: TestLV2Bundle.gainURI, configuration: configuration)
        try plain.setControl("gain", 0.5)
        let x = Signals.sine(count: 4_800, frequency: 1_000, sampleRate: 48_000, amplitude: 0.5)
        #expect(abs(Measure.ratioDB(plain.run(x, block: 64), x, 0..<4_800) + 6.02) < 0.01)
        #expect(plain.notes.isEmpty, "declares lv2:hardRTCapable")

        let error = #expect(throws: LV2Error.self) {
            _ = try LV2Unit(
                world: testWorld, uri: TestLV2Bundle.needsFeatureURI, configuration: configuration)
        }
        #expect(
            error
                == .unsupportedFeature(
                    plugin: TestLV2Bundle.needsFeatureURI, feature: TestLV2Bundle.madeUpFeature))
        #expect(error?.description.contains(TestLV2Bundle.madeUpFeature) == true)
        #expect(error?.exitCode == 65)
    }

    @Test("an unknown URI suggests the installed plugin it was meant to be")
    func unknownURI() throws {
        let error = #expect(throws: LV2Error.self) {
            _ = try makeUnit("http://plugin.org.uk/swh-plugins/singlePar")
        }
        #expect(
            error
                == .unknownPlugin(
                    uri: "http://plugin.org.uk/swh-plugins/singlePar", suggestion: Plugins.singlePara))
        #expect(error?.description.contains("did you mean '\(Plugins.singlePara)'") == true)
        #expect(error?.exitCode == 65)
    }

    @Test("a bad control symbol names the plugin and the nearest symbol")
    func badSymbol() throws {
        let eq = try makeUnit(Plugins.singlePara)
        let error = #expect(throws: LV2Error.self) { try eq.setControl("gian", 3) }
        #expect(
            error == .unknownControl(plugin: Plugins.singlePara, symbol: "gian", suggestion: "gain"))
    }

    @Test("an out-of-range value names the symbol and the plugin's own range (scaled by the rate)")
    func outOfRange() throws {
        let eq = try makeUnit(Plugins.singlePara)
        let gain = #expect(throws: LV2Error.self) { try eq.setControl("gain", 40) }
        #expect(
            gain == .outOfRange(plugin: Plugins.singlePara, symbol: "gain", value: 40, range: -70...30))
        #expect(gain?.description.contains("gain = 40.0 is outside -70.0...30.0") == true)
        // fc's bounds are 0...0.4 of the sample rate: 19.2 kHz at 48 kHz.
        #expect(throws: LV2Error.self) { try eq.setControl("fc", 20_000) }
        try eq.setControl("fc", 19_000)
        let index = try eq.controlIndex("fc")
        #expect(eq.control(index) == 19_000)
        // The real-time setter clamps instead of failing.
        eq.setControl(index, 50_000)
        #expect(eq.control(index) == 19_200)
    }
}
