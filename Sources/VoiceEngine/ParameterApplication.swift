import VoiceRT

/// Live parameter changes on the process thread: the render cycle drains the engine's
/// `ParameterRing` at its start and applies each message through the units' gliding setters,
/// so nothing clicks and nothing waits.
extension EngineState {
    /// Most messages applied per cycle; the rest wait for the next cycles. Bounds the cycle's
    /// cost (a whole preset reload is ~100 messages: two cycles).
    @inline(__always) static var messagesPerCycle: Int { 64 }

    // `ParameterTarget.code`'s values, as literals the process thread can compare.
    @inline(__always) static var inputGainCode: Int { 0 }
    @inline(__always) static var levellerCode: Int { 1 }
    @inline(__always) static var outputGainCode: Int { 2 }
    @inline(__always) static var monitorCode: Int { 3 }
    @inline(__always) static var duckingDepthCode: Int { 4 }
    @inline(__always) static var feedbackGuardCode: Int { 5 }
    @inline(__always) static var firstSlotCode: Int { 256 }

    /// Applies up to `messagesPerCycle` waiting messages. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func applyParameterMessages() {
        var budget = Self.messagesPerCycle
        while budget > 0, let message = parameters.pop() {
            apply(message)
            budget -= 1
        }
    }

    /// Applies one message; unknown targets and slots are counted, not applied. - Realtime: safe.
    @_noLocks
    mutating func apply(_ message: ParameterMessage) {
        let index = Int(Int32(message.index)), value = message.value
        let code = Int(Int32(message.target))
        if code >= Self.firstSlotCode {
            let slot = code - Self.firstSlotCode
            guard slot < effects.count else {
                figures.parametersRejected += 1
                return
            }
            effects.slots[slot].setParameter(index, value)
        } else if code == Self.monitorCode {
            monitorGains.setTarget(index, value)
        } else if code == Self.duckingDepthCode {
            ducking.depth = value
        } else if code == Self.feedbackGuardCode {
            if index == 0 {
                feedbackGuardOn = value >= 0.5
            } else {
                rearmFeedbackGuard()
            }
        } else if code == Self.inputGainCode {
            var unit = inputGain  // a local copy: the closure must not capture the engine
            _unsafePerformance { unit.setParameter(index, value) }
            inputGain = unit
        } else if code == Self.levellerCode {
            var unit = leveller  // a local copy: the closure must not capture the engine
            _unsafePerformance { unit.setParameter(index, value) }
            leveller = unit
        } else if code == Self.outputGainCode {
            var unit = outputGain  // a local copy: the closure must not capture the engine
            _unsafePerformance { unit.setParameter(index, value) }
            outputGain = unit
        } else {
            figures.parametersRejected += 1
            return
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
    /// `setParameter`, which is not `@_noLocks`: it recomputes coefficients with libm (`powf`,
    /// `expf`, `tan`, `cos`: pure functions that neither allocate nor lock) and clamps against the
    /// unit's static descriptor table, already initialised off the process thread when the unit
    /// was made. Targets glide (`SmoothedGain`, `GlidingBiquad`), so a change never steps the
    /// signal. RealtimeSafetyTests set every parameter of every unit inside RealtimeSanitizer's
    /// region.
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
        }
    }
}
