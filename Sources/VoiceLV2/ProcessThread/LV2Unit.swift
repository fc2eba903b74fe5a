import VoiceUnits

/// An LV2 plugin as a mono, in-place voice unit: a chain slot owns one and calls `process` on
/// the process thread.
///
/// Making one (`init`) finds the plugin, refuses it when its ports do not fit a mono voice path
/// or it requires a feature voicerack lacks, instantiates it, applies its default state and a
/// saved state, and activates it; dropping it deactivates and frees it. Both happen off the
/// process thread, so a structural change builds the new unit there and swaps it in; the old one
/// is dropped there too. A new unit has run one block of silence (so `latency()` is known).
/// Offline runs use `.synchronous` workers so results do not depend on a
/// thread's timing.
///
/// The process thread touches only `LV2ProcessState` (a plain struct behind a pointer): the
/// instance, its buffers and the control values. Audio channels: see
/// `LV2ProcessState.runBlock`.
public struct LV2Unit: ~Copyable {
    private let owner: LV2Instance
    let state: UnsafeMutablePointer<LV2ProcessState>

    /// What the plugin's data says about it.
    public var info: LV2PluginInfo { owner.info }
    /// The parameters (control inputs), ids = port symbols, ranges at this unit's sample rate.
    public let parameters: [ParameterDescriptor]
    /// Warnings for the user at load (e.g. the plugin is not hard-real-time capable).
    public let notes: [String]

    /// Loads plugin `uri` from `world` for `configuration`, restoring `savedState` (from
    /// `savedState()`) when given.
    ///
    /// - Realtime: never.
    /// - Throws: `LV2Error` naming the plugin and the URI, feature, port or state at fault.
    public init(
        world: LV2World, uri: String, configuration: LV2Configuration, savedState: String? = nil
    ) throws(LV2Error) {
        owner = try LV2Instance(
            world: world, uri: uri, configuration: configuration, savedState: savedState)
        state = owner.state
        parameters = owner.info.parameters(sampleRate: configuration.sampleRate)
        // One block of silence, so the latency port holds a value before the first real block
        // (plugins write it in run()) and a chain can report it before it starts.
        var silence = [Float](repeating: 0, count: configuration.maximumBlockSize)
        silence.withUnsafeMutableBufferPointer { [state] in
            state.pointee.runBlock($0.baseAddress!, frames: $0.count)
        }
        notes =
            owner.info.hardRTCapable
            ? []
            : [
                "LV2 plugin '\(uri)' is not hard-real-time capable (no lv2:hardRTCapable): its run() may "
                    + "allocate or block and cause xruns"
            ]
    }

    // MARK: Process thread

    /// Processes `frames` samples of the mono voice in place, in blocks of at most the
    /// configuration's maximum.
    ///
    /// - Realtime: safe (for hard-RT-capable plugins; see LV2RealtimeEdge.swift).
    @_noLocks
    public func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        state.pointee.process(buffer, frames: frames)
    }

    /// Sets control port `portIndex` (a port index, as in `info.ports`) to `value`, clamped to
    /// its range; takes effect at the next `process`. Call from the thread that runs `process`,
    /// between calls (the chain applies its control messages there).
    ///
    /// - Realtime: safe.
    @_noLocks
    public func setControl(_ portIndex: Int, _ value: Float) {
        state.pointee.setControl(portIndex, value)
    }

    /// The current value of control port `portIndex` (inputs as set, outputs as the plugin last
    /// wrote them), or NaN for a bad index.
    ///
    /// - Realtime: safe; only on the thread that runs `process`, between calls (the plugin writes
    ///   its output ports as plain floats during a run).
    @_noLocks
    public func control(_ portIndex: Int) -> Float {
        let s = state.pointee
        return portIndex >= 0 && portIndex < s.portCount ? s.controls[portIndex] : .nan
    }

    /// The latency the plugin reports on its latency port, in samples (0 without one), as of its
    /// last run. Valid after a `process` call; re-read it when it may change and report it off the
    /// process thread.
    ///
    /// - Realtime: safe; any thread (an atomic copy the process thread publishes after each run).
    @_noLocks
    public func latency() -> Int { state.pointee.reportedLatency() }

    // MARK: Off the process thread

    /// The port index of input control `symbol`, after checking it exists: how a chain resolves
    /// `unit.symbol` once, before sending values to `setControl`.
    ///
    /// - Realtime: never.
    public func controlIndex(_ symbol: String) throws(LV2Error) -> Int {
        try info.control(symbol).index
    }

    /// Checks `value` against control `symbol`'s own range (at this unit's sample rate) and
    /// returns the port index to pass to `setControl`.
    ///
    /// - Realtime: never.
    /// - Throws: `unknownControl` or `outOfRange`, naming the plugin, symbol and range.
    public func validate(_ symbol: String, _ value: Float) throws(LV2Error) -> Int {
        let port = try info.control(symbol)
        let range = port.range(sampleRate: owner.configuration.sampleRate)
        guard value.isFinite, range.contains(value) else {
            throw .outOfRange(plugin: info.uri, symbol: symbol, value: value, range: range)
        }
        return port.index
    }

    /// Validates and sets control `symbol` (for setup; live changes go through `setControl` on
    /// the process thread).
    ///
    /// - Realtime: never.
    public func setControl(_ symbol: String, _ value: Float) throws(LV2Error) {
        setControl(try validate(symbol, value), value)
    }

    /// The plugin's complete state (control values and the plugin's own state) as Turtle text,
    /// to keep in a preset; `init(savedState:)` brings the plugin back exactly.
    ///
    /// - Realtime: never.
    public func savedState() -> String { owner.savedState() }

    /// Lines the plugin logged since the last call, e.g. "warning: ...". Plugins log into a
    /// lock-free queue; this drains it.
    ///
    /// - Realtime: never.
    public func drainLog() -> [String] { owner.drainLog() }
}
