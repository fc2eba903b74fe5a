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
        #expect(table.count == EngineControl.routed.count)
        #expect(EngineControl.routed.count == 17)
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
        for control in EngineControl.routed {
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

    @Test("a key that needs a restart is never sent: liveUpdate leaves it unreached and set refuses it")
    func restartKeysAreNotSent() {
        let restart = EngineControl.all.filter(\.needsRestart)
        #expect(restart.count == 13)
        for control in restart {
            var old = EngineConfiguration()
            let field = control.field!
            var new = old
            new[keyPath: field] =
                old[keyPath: field] == control.key!.range.upperBound
                ? control.key!.range.lowerBound : control.key!.range.upperBound
            let update = old.liveUpdate(to: new)
            #expect(update.messages.isEmpty && update.needsRestart, "\(control.name)")
            #expect(update.reached[keyPath: field] == old[keyPath: field], "\(control.name)")
            let before = old
            #expect(old.set(.engine(control), to: new[keyPath: field]) == ParameterChange(needsRestart: true))
            #expect(old == before, "\(control.name)")
        }
    }

    @Test("set sends one parameter's message alone, as liveUpdate would for that one change")
    func oneParameterOneMessage() {
        var base = EngineConfiguration()
        base.echoCancellation = true
        base.chain = [.builtIn(.compressor), .builtIn(.limiter)]
        // Another field differs between the model and `base`: set must not send it.
        for control in EngineControl.all where control.key != nil && !control.needsRestart {
            var model = base
            let key = control.key!
            let value =
                model[keyPath: control.field!] == key.range.upperBound ? key.range.lowerBound : key.range.upperBound
            var wanted = base
            wanted[keyPath: control.field!] = value
            let change = model.set(.engine(control), to: value)
            #expect(change.messages == base.liveUpdate(to: wanted).messages, "\(control.name)")
            #expect(change.messages.count == (control.sent == .monitorMix ? 4 : 1), "\(control.name)")
            #expect(model == wanted, "\(control.name)")
        }
        var model = base
        model.outputGainDB = -3  // not sent by the change below
        let change = model.set(.effect(.compressor, index: 0), to: -18)
        #expect(change.messages == [ControlMessage("compressor.threshold_dbfs", -18)])
        #expect(model.effectValues[EffectKind.compressor.index][0] == -18 && model.outputGainDB == -3)
        // A unit outside the chain: remembered, no message.
        #expect(model.set(.effect(.reverb, index: 0), to: 0.7).messages.isEmpty)
        #expect(model.effectValues[EffectKind.reverb.index][0] == 0.7)
    }
}
