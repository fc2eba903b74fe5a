import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport
import VoiceUnits

/// What the catalog reads from plugins' data: ports, ranges, units, features, descriptors.
@Suite("LV2 catalog")
struct LV2CatalogTests {
    @Test("parameter descriptors come from the control ports: symbol, range, default, unit")
    func descriptors() throws {
        let eq = try makeUnit(Plugins.singlePara)
        #expect(eq.parameters.map(\.id) == ["gain", "fc", "bw"])
        #expect(eq.parameters[0].range == -70...30)
        #expect(eq.parameters[0].defaultValue == 0)
        #expect(eq.parameters[1].range == 0...19_200)
        let gate = try makeUnit(Plugins.lspGate)
        let attack = try #require(gate.parameters.first { $0.id == "at" })
        #expect(attack.unit == .milliseconds && attack.range == 0...2_000 && attack.defaultValue == 20)
        #expect(gate.parameters.allSatisfy { $0.range.contains($0.defaultValue) })
    }

    @Test("hard-RT plugins load without a note; others get a warning naming them")
    func realtimeNotes() throws {
        #expect(try makeUnit(Plugins.dpl).notes.isEmpty)
        let notes = try makeUnit(Plugins.swhLimiter).notes
        #expect(
            notes.count == 1 && notes[0].contains(Plugins.swhLimiter)
                && notes[0].contains("hardRTCapable"))
    }

    @Test(
        "the installed plugins include the three packages' and exclude what a voice path cannot use")
    func catalog() throws {
        let all = world.allPlugins()
        #expect(all.count > 300)
        let uris = Set(all.map(\.uri))
        for uri in [
            Plugins.singlePara, Plugins.gverb, Plugins.dpl, Plugins.lspGate, Plugins.lspLimiter,
        ] {
            #expect(uris.contains(uri))
        }
        let usable = all.filter { $0.voicePathProblem == nil }
        #expect(usable.contains { $0.uri == Plugins.gverb })
        // A synth (no audio input) cannot sit on the voice path.
        let oscillator = try world.plugin("http://plugin.org.uk/swh-plugins/analogueOsc")
        #expect(oscillator.voicePathProblem != nil)
    }
}
