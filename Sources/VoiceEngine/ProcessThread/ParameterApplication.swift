import VoiceEcho
import VoiceRT

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
        case .residualSuppression:
            canceller.set(.residualSuppression, value)
        case .coherenceSuppression:
            canceller.set(.coherenceSuppression, value)
        case .clippingCoherenceSuppression:
            canceller.set(.clippingCoherenceSuppression, value)
        case .leftoverEchoSuppression:
            canceller.set(.leftoverEchoSuppression, value)
        case .residualEchoGate:
            canceller.set(.residualEchoGate, value)
        case .inputGain(let index):
            var unit = inputGain  // a local copy: the closure must not capture the engine
            // Realtime: see `EffectSlot.setParameter` (libm's pure functions, no allocation).
            _unsafePerformance { unit.setParameter(index, value) }
            inputGain = unit
        case .leveller(let index):
            var unit = leveller
            _unsafePerformance { unit.setParameter(index, value) }
            leveller = unit
        case .outputGain(let index):
            var unit = outputGain
            _unsafePerformance { unit.setParameter(index, value) }
            outputGain = unit
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

extension EffectSlot {
    /// Sets parameter `index` of the slot's unit, clamped by the unit. - Realtime: safe.
    ///
    /// Here and for the gains and the leveller above, the process thread calls a unit's
    /// `setParameter`, which the compiler cannot check (`VoiceUnit.setParameter` is not
    /// `@_noLocks`): it recomputes coefficients with libm (`powf`, `expf`, `tan`, `cos`: pure
    /// functions that neither allocate nor lock) and clamps against the unit's static descriptor
    /// table, already initialised off the process thread when the unit was made. Targets glide
    /// (`SmoothedGain`, `GlidingBiquad`), so a change never steps the signal. RealtimeSafetyTests
    /// set every parameter of every unit inside RealtimeSanitizer's region.
    @_noLocks
    mutating func setParameter(_ index: Int, _ value: Float) {
        switch self {
        case .equalizer(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .equalizer(u)
        case .gate(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .gate(u)
        case .compressor(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .compressor(u)
        case .deesser(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .deesser(u)
        case .limiter(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .limiter(u)
        case .delay(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .delay(u)
        case .reverb(var u):
            _unsafePerformance { u.setParameter(index, value) }
            self = .reverb(u)
        case .plugin(let u):
            // `index` is the plugin's port index (`PreparedPlugin.controls`).
            u.setControl(index, value)
        }
    }
}
