import VoiceRT

/// One of the engine's own live parameters (outside the effect chain), declared once: the name
/// its messages carry, where it lands on the process thread, and the configuration field a change
/// follows. `ControlTable` routes these names and `liveUpdate` follows these fields; nothing else
/// lists them. (The chain's units declare theirs in their `parameters`.)
///
/// - Realtime: never (names and key paths, read on the main thread when an engine is built or a
///   change is sent).
struct EngineControl: Sendable {
    /// How the field's value becomes the message's value.
    enum Sent: Sendable {
        /// As it is (dB to a unit that converts itself, a strength, an exponent).
        case asIs
        /// A level in dB sent as a linear gain (the process thread has no libm to spare for it).
        case gainFromDecibels
    }

    /// The message's name (`ControlNames`).
    let name: String
    /// Its identifier, resolved from the name once.
    let id: ParameterID
    /// Where it lands in `EngineState.apply`.
    let route: ControlTable.Route
    /// The field a configuration change follows; nil for controls sent otherwise (the monitor's
    /// four gains, worked out together from levels and pan; the guard's switch; an action).
    let field: (WritableKeyPath<EngineConfiguration, Float> & Sendable)?
    let sent: Sent
    /// True for the canceller's parameters (the post-filter's, the gate's): without echo
    /// cancellation nothing runs them, so a change is only remembered (turning echo cancellation
    /// on is a restart, which builds the post-filter from them).
    var needsCanceller: Bool {
        if case .canceller = route { return true }
        return false
    }

    /// A control that follows `field`.
    init(
        _ name: String, _ route: ControlTable.Route, _ field: WritableKeyPath<EngineConfiguration, Float> & Sendable,
        sent: Sent = .asIs
    ) {
        self.init(name: name, route: route, field: field, sent: sent)
    }

    /// A control whose messages are built otherwise.
    init(_ name: String, _ route: ControlTable.Route) {
        self.init(name: name, route: route, field: nil, sent: .asIs)
    }

    private init(
        name: String, route: ControlTable.Route, field: (WritableKeyPath<EngineConfiguration, Float> & Sendable)?,
        sent: Sent
    ) {
        self.name = name
        id = ParameterID(name)
        self.route = route
        self.field = field
        self.sent = sent
    }

    /// Every engine control, in the order a change's messages are sent.
    static let all: [EngineControl] =
        [EngineControl(ControlNames.inputGain, .inputGain(index: 0), \.inputGainDB)]
        + [
            // The leveller's, by its descriptors' ids and positions (a test checks they agree).
            EngineControl(ControlNames.leveller("target_dbfs"), .leveller(index: 0), \.levellerTargetDBFS),
            EngineControl(ControlNames.leveller("max_gain_db"), .leveller(index: 1), \.levellerMaxGainDB),
            EngineControl(ControlNames.leveller("speed_db_per_s"), .leveller(index: 2), \.levellerSpeedDBPerSecond),
        ]
        + [
            EngineControl(ControlNames.outputGain, .outputGain(index: 0), \.outputGainDB),
            // The post-filter runs after the canceller; its strengths change no latency or
            // allocation, so `echo-cancel` → `echo-cancel-strong` needs no restart.
            EngineControl(ControlNames.residualSuppression, .canceller(.residualSuppression), \.residualSuppression),
            EngineControl(ControlNames.coherenceSuppression, .canceller(.coherenceSuppression), \.coherenceSuppression),
            EngineControl(
                ControlNames.clippingCoherenceSuppression, .canceller(.clippingCoherenceSuppression),
                \.clippingCoherenceSuppression),
            EngineControl(
                ControlNames.leftoverEchoSuppression, .canceller(.leftoverEchoSuppression), \.leftoverEchoSuppression),
            EngineControl(
                ControlNames.residualEchoGate, .canceller(.residualEchoGate), \.residualEchoGateDB,
                sent: .gainFromDecibels),
            EngineControl(ControlNames.duckingDepth, .duckingDepth, \.duckingDepthDB, sent: .gainFromDecibels),
            EngineControl(ControlNames.monitorVoiceLeft, .monitor(gain: 0)),
            EngineControl(ControlNames.monitorVoiceRight, .monitor(gain: 1)),
            EngineControl(ControlNames.monitorFar, .monitor(gain: 2)),
            EngineControl(ControlNames.monitorMaster, .monitor(gain: 3)),
            EngineControl(ControlNames.feedbackGuard, .feedbackGuard),
            EngineControl(ControlNames.unmuteMonitor, .unmuteMonitor),
        ]

    /// The message that takes the engine to `configuration`'s value of `field`.
    /// - Precondition: `field` is set.
    func message(for configuration: EngineConfiguration) -> ControlMessage {
        let value = configuration[keyPath: field!]
        return ControlMessage(id, sent == .gainFromDecibels ? Decibels.amplitude(value) : value)
    }
}
