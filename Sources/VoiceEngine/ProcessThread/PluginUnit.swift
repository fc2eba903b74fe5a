/// A plugin unit in the effect chain (an LV2 plugin, made by the program's `PluginHost`), seen
/// by the engine as a table of C function pointers over two opaque pointers.
///
/// The engine must not know how a plugin is hosted (it imports no C library), and the process
/// thread must not use existentials or reference counting. So the host hands over plain values:
/// `context` is the plugin's process-thread state and the functions take it; `owner` is the
/// retained object that keeps the plugin alive, released by `release` off the process thread.
/// The value is `BitwiseCopyable`: copying it never retains anything.
///
/// - Realtime: `process`, `setControl` and `latency` are safe (for plugins that are
///   hard-real-time capable; the host warns about the others); `release` is not.
public struct PluginUnit: BitwiseCopyable {
    /// Processes `frames` mono samples in place. Audio thread.
    public typealias Run = @convention(c) (UnsafeMutableRawPointer, UnsafeMutablePointer<Float>, Int) -> Void
    /// Sets control port `index` to a value (clamped by the host to the port's range). Audio thread.
    public typealias SetControl = @convention(c) (UnsafeMutableRawPointer, Int, Float) -> Void
    /// The latency the plugin reports now, in samples. Any thread (a relaxed read).
    public typealias Latency = @convention(c) (UnsafeMutableRawPointer) -> Int
    /// Frees the plugin (deactivate, cleanup). Never the audio thread.
    public typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void

    let context: UnsafeMutableRawPointer
    let owner: UnsafeMutableRawPointer
    let run: Run
    let set: SetControl
    let reportedLatency: Latency
    let free: Release

    public init(
        context: UnsafeMutableRawPointer, owner: UnsafeMutableRawPointer, run: Run, setControl: SetControl,
        latency: Latency, release: Release
    ) {
        self.context = context
        self.owner = owner
        self.run = run
        set = setControl
        reportedLatency = latency
        free = release
    }

    /// Runs the plugin over `frames` samples in place. - Realtime: safe.
    @inline(__always) @_noLocks
    public func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let (run, context) = (self.run, self.context)
        // Realtime: the host's run function is the plugin's Audio-class run() over preallocated
        // buffers (VoiceLV2's LV2RealtimeEdge.swift); the compiler cannot see through the pointer.
        _unsafePerformance { run(context, buffer, frames) }
    }

    /// Sets control port `port` (an index the host gave in `PreparedPlugin.controls`).
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func setControl(_ port: Int, _ value: Float) {
        let (set, context) = (self.set, self.context)
        // Realtime: the host's function clamps and stores one Float.
        _unsafePerformance { set(context, port, value) }
    }

    /// Samples of delay the plugin reports (its latency port). - Realtime: safe.
    @inline(__always) @_noLocks
    func latency() -> Int {
        let (read, context) = (reportedLatency, self.context)
        // Realtime: the host's function reads one Float.
        return _unsafePerformance { read(context) }
    }

    /// Frees the plugin; the engine does this for the units of its chain. - Realtime: never.
    public func release() { free(owner) }
}

/// A plugin unit made by a `PluginHost`, with what the engine needs off the process thread.
///
/// - Realtime: never (arrays and strings); the engine keeps only `unit` on the process thread.
public struct PreparedPlugin {
    /// The unit the chain slot owns; the engine releases it.
    public let unit: PluginUnit
    /// Input controls by port symbol, with the port index `setControl` takes: the engine's
    /// `ControlTable` resolves `unit.symbol` names to these once, when it is built.
    public let controls: [(symbol: String, port: Int)]
    /// Warnings for the user at load (a plugin that is not hard-real-time capable).
    public let notes: [String]
    /// The plugin's complete state now (its port values and its own), as text for
    /// `PluginUnitSettings.state`; "" while it has none or is gone. Main thread, while the
    /// plugin runs (LV2's save may run beside run()).
    public let savedState: @Sendable () -> String

    public init(
        unit: PluginUnit, controls: [(symbol: String, port: Int)], notes: [String],
        savedState: @escaping @Sendable () -> String = { "" }
    ) {
        self.unit = unit
        self.controls = controls
        self.notes = notes
        self.savedState = savedState
    }
}
