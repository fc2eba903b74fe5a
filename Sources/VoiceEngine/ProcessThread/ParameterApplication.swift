import VoiceEcho
import VoiceRT
import VoiceUnits

/// Live parameter changes on the process thread: the render cycle drains the engine's
/// `ControlRing` at its start, looks each message's identifier up in the engine's `ControlTable`
/// and applies it through the units' gliding setters, so nothing clicks and nothing waits.
extension EngineState {
    /// Most messages applied per cycle; the rest wait for the next cycles. Bounds the cycle's
    /// cost (a whole preset reload is ~100 messages: two cycles).
    @inline(__always) static var messagesPerCycle: Int { 64 }

    /// Applies up to `messagesPerCycle` waiting messages. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func applyControlMessages() {
        var budget = Self.messagesPerCycle
        while budget > 0, let message = controls.pop() {
            apply(message)
            budget -= 1
        }
    }

    /// Applies one message; identifiers this engine does not know are counted, not applied.
    /// - Realtime: safe.
    @_noLocks
    mutating func apply(_ message: ControlMessage) {
        guard let route = controlTable.route(for: message.parameter) else {
            figures.parametersRejected += 1
            return
        }
        let value = message.value
        switch route {
        case .effect(let slot, let index):
            effects.slots[slot].setParameter(index, value)
        case .monitor(let gain):
            monitorGains.setTarget(gain, value)
        case .duckingDepth:
            ducking.depth = value
        case .feedbackGuard:
            feedbackGuardOn = value >= 0.5
        case .unmuteMonitor:
            rearmFeedbackGuard()
        case .canceller(let parameter):
            canceller.set(parameter, value)
        case .inputGain(let index):
            inputGain = inputGain.settingParameter(index, value)
        case .leveller(let index):
            leveller = leveller.settingParameter(index, value)
        case .outputGain(let index):
            outputGain = outputGain.settingParameter(index, value)
        }
        figures.parametersApplied += 1
    }

    /// Unmutes the monitor (gliding up) and lets the guard watch again. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func rearmFeedbackGuard() {
        feedbackGuard.rearm()
        monitorGains.mute.setTarget(1)
        figures.monitorMuted = false
        figures.feedbackFrequency = 0
    }
}

extension VoiceUnit {
    /// This unit with parameter `index` set to `value`, clamped by the unit. - Realtime: safe.
    ///
    /// The process thread calls a unit's `setParameter` here (for the chain's slots, the gains
    /// and the leveller), which the compiler cannot check (`VoiceUnit.setParameter` is not
    /// `@_noLocks`): it recomputes coefficients with libm (`powf`, `expf`, `tan`, `cos`: pure
    /// functions that neither allocate nor lock) and clamps against the unit's static descriptor
    /// table, already initialised off the process thread when the unit was made. Targets glide
    /// (`SmoothedGain`, `GlidingBiquad`), so a change never steps the signal. RealtimeSanitizer's
    /// tests set every parameter of every unit inside a real-time region. The unit is a local
    /// copy, changed whole and handed back (the closure must not capture the engine). Generic,
    /// so the compiler checks it where it is specialised (in `EngineState.apply`, `EffectSlot.run`).
    @inline(__always)
    func settingParameter(_ index: Int, _ value: Float) -> Self {
        var unit = self
        _unsafePerformance { unit.setParameter(index, value) }
        return unit
    }
}
