import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// Plugin state kept as text: a tuned plugin comes back exactly.
@Suite("LV2 state")
struct LV2StateTests {
    @Test("a tuned LSP gate saved as text comes back with the same controls and the same output")
    func lspStateRoundTrip() throws {
        let tuned = try makeUnit(
            Plugins.lspGate, controls: ["gt": 0.02, "gr": 0.005, "at": 5, "rt": 70])
        let text = tuned.savedState()
        #expect(text.contains("gate_mono"))
        let restored = try makeUnit(Plugins.lspGate, state: text)
        let fresh = try makeUnit(Plugins.lspGate)
        for symbol in ["gt", "gr", "at", "rt"] {
            let index = try restored.controlIndex(symbol)
            #expect(restored.control(index) == tuned.control(index), "\(symbol)")
            #expect(fresh.control(index) != tuned.control(index), "\(symbol) differs from the default")
        }
        let x = Signals.speechLike(count: 48_000, sampleRate: 48_000, rms: 0.05, seed: 11)
        #expect(tuned.run(x, block: 256) == restored.run(x, block: 256))
        #expect(fresh.run(x, block: 256) != restored.run(x, block: 256))
    }

    @Test("an x42 state (control values only) round-trips too")
    func x42StateRoundTrip() throws {
        let tuned = try makeUnit(Plugins.dpl, controls: ["threshold": -4.5, "release": 0.2])
        let restored = try makeUnit(Plugins.dpl, state: tuned.savedState())
        #expect(restored.control(try restored.controlIndex("threshold")) == -4.5)
        #expect(restored.control(try restored.controlIndex("release")) == 0.2)
    }

    @Test("a state of another plugin, or not a state at all, is refused")
    func badStates() throws {
        let gateState = try makeUnit(Plugins.lspGate).savedState()
        #expect(throws: LV2Error.self) { _ = try makeUnit(Plugins.dpl, state: gateState) }
        #expect(throws: LV2Error.self) { _ = try makeUnit(Plugins.dpl, state: "not turtle at all") }
    }
}
