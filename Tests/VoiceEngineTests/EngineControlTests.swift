import Testing
import VoiceRT
import VoiceUnits

@testable import VoiceEngine

/// The engine's own live parameters are declared once (`EngineControl.all`): the control table
/// routes exactly those names, and `liveUpdate` follows exactly those fields.
@Suite("Engine controls")
struct EngineControlTests {
    @Test("the leveller's controls are its descriptors, by id and position")
    func levellerFollowsItsDescriptors() {
        let leveller = EngineControl.all.compactMap { control -> (String, Int)? in
            guard case .leveller(let index) = control.route else { return nil }
            return (control.name, index)
        }
        #expect(leveller.map(\.0) == VoiceLeveller.parameters.map { "agc.\($0.id)" })
        #expect(leveller.map(\.1) == Array(VoiceLeveller.parameters.indices))
    }

    @Test("every declared control is routed where it says, and the names are distinct")
    func tableRoutesTheDeclaration() {
        let table = ControlTable(chain: [])
        defer { table.deallocate() }
        #expect(table.count == EngineControl.all.count)
        for control in EngineControl.all {
            #expect(table.route(for: control.id) == control.route, "\(control.name)")
        }
        #expect(Set(EngineControl.all.map(\.name)).count == EngineControl.all.count)
    }

    @Test("each followed field sends one message of its value (dB as a gain where declared)")
    func followedFieldsSendTheirValue() {
        for cancelling in [false, true] {
            var old = EngineConfiguration()
            old.echoCancellation = cancelling
            check(from: old)
        }
    }

    private func check(from old: EngineConfiguration) {
        for control in EngineControl.all {
            guard let field = control.field else { continue }
            var new = old
            new[keyPath: field] = old[keyPath: field] == -6 ? -3 : -6
            let update = old.liveUpdate(to: new)
            let expected =
                control.sent == .gainFromDecibels ? Decibels.amplitude(new[keyPath: field]) : new[keyPath: field]
            let sent = old.echoCancellation || !control.needsCanceller
            #expect(update.messages == (sent ? [ControlMessage(control.id, expected)] : []), "\(control.name)")
            #expect(update.reached[keyPath: field] == new[keyPath: field], "\(control.name)")
            #expect(!update.needsRestart, "\(control.name)")
        }
    }
}
