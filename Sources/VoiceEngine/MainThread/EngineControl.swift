import VoiceRT
import VoiceUnits

/// One of the engine's own parameters (outside the effect chain), declared once: the preset key
/// that sets it with its range, unit and help, the name its messages carry, where it lands on the
/// process thread, the configuration field it follows, and whether a change needs a restart.
///
/// The preset schema reads the keys, `ControlTable` routes the names, `liveUpdate` and
/// `EngineConfiguration.setting` follow the fields; nothing else lists them. (The chain's units
/// declare theirs in their `parameters`.) Booleans and choices (`echo_canceller.enabled`,
/// `monitor.source`) are the schema's own: none of them is a message but the feedback guard's
/// switch, declared here as a message only.
///
/// - Realtime: never (names and key paths, read on the main thread when an engine is built or a
///   change is sent).
public struct EngineControl: Sendable {
    /// How the field's value becomes the message's value.
    public enum Sent: Sendable {
        /// As it is (dB to a unit that converts itself, a strength, an exponent).
        case asIs
        /// A level in dB sent as a linear gain (the process thread has no libm to spare for it).
        case gainFromDecibels
        /// As the monitor's four linear gains, worked out together from its levels and pan.
        case monitorMix
    }

    /// The preset key that sets a control: what the schema, `show`, the panel, OSC and completion
    /// read.
    public struct Key: Sendable {
        public let section: String
        public let name: String
        /// Allowed values, inclusive (narrower than the DSP would take: where it behaves well).
        public let range: ClosedRange<Float>
        public let unit: ParameterUnit
        public let help: String
        /// What 0 means when 0 lies outside `range` and is still allowed ("off", "auto").
        public let zero: String?

        /// `section.name`.
        public var fullName: String { "\(section).\(name)" }

        init(
            _ section: String, _ name: String, _ range: ClosedRange<Float>, _ unit: ParameterUnit, _ help: String,
            zero: String? = nil
        ) {
            (self.section, self.name, self.range, self.unit, self.help, self.zero) = (
                section, name, range, unit, help, zero
            )
        }

        /// A key that is a unit's declared parameter (the leveller's): name, range and unit from it.
        init(_ section: String, _ p: ParameterDescriptor, _ help: String) {
            self.init(section, p.id, p.range, p.unit, help)
        }
    }

    /// The message's name (the key's full name unless the value is sent converted).
    public let name: String
    /// Its identifier, resolved from the name once.
    public let id: ParameterID
    /// Where it lands in `EngineState.apply`; nil when no message carries it (a restart, or the
    /// monitor's levels, sent as the four gains).
    let route: ControlTable.Route?
    /// The field a configuration change follows; nil for controls sent otherwise (the monitor's
    /// four gains; the guard's switch; an action).
    public let field: (WritableKeyPath<EngineConfiguration, Float> & Sendable)?
    public let sent: Sent
    /// The preset key that sets it; nil for a message no key names.
    public let key: Key?
    /// True when a running engine cannot take a change: it shapes what the engine allocates or
    /// prepares (a canceller's tail, a frame, a delay line, speexdsp's preprocessor, the
    /// high-pass's design, ducking's time constants).
    public let needsRestart: Bool

    /// True for the canceller's parameters (the post-filter's, the gate's): without echo
    /// cancellation nothing runs them, so a change is only remembered (turning echo cancellation
    /// on is a restart, which builds the post-filter from them).
    var needsCanceller: Bool {
        if case .canceller = route { return true }
        return false
    }

    /// A live control set by `key`, whose messages are named `message` (else the key's name).
    init(
        _ key: Key, _ route: ControlTable.Route, _ field: WritableKeyPath<EngineConfiguration, Float> & Sendable,
        sent: Sent = .asIs, message: String? = nil
    ) {
        self.init(name: message ?? key.fullName, route: route, field: field, sent: sent, key: key, restart: false)
    }

    /// A key a running engine takes as other messages (`sent`, the monitor's mix) or not at all
    /// (`restart`).
    init(_ key: Key, _ field: WritableKeyPath<EngineConfiguration, Float> & Sendable, sent: Sent) {
        self.init(name: key.fullName, route: nil, field: field, sent: sent, key: key, restart: false)
    }

    init(restart key: Key, _ field: WritableKeyPath<EngineConfiguration, Float> & Sendable) {
        self.init(name: key.fullName, route: nil, field: field, sent: .asIs, key: key, restart: true)
    }

    /// A message that no key sets (the monitor's gains, the guard's switch, an action).
    init(message name: String, _ route: ControlTable.Route) {
        self.init(name: name, route: route, field: nil, sent: .asIs, key: nil, restart: false)
    }

    private init(
        name: String, route: ControlTable.Route?, field: (WritableKeyPath<EngineConfiguration, Float> & Sendable)?,
        sent: Sent, key: Key?, restart: Bool
    ) {
        self.name = name
        id = ParameterID(name)
        self.route = route
        self.field = field
        self.sent = sent
        self.key = key
        needsRestart = restart
    }

    /// The message that takes the engine to `configuration`'s value of `field`.
    /// - Precondition: `field` is set and `route` is not nil.
    func message(for configuration: EngineConfiguration) -> ControlMessage {
        let value = configuration[keyPath: field!]
        return ControlMessage(id, sent == .gainFromDecibels ? Decibels.amplitude(value) : value)
    }
}
