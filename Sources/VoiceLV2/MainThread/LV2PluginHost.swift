import Synchronization
import VoiceEngine
import VoiceUnits

/// The engine's `PluginHost` for LV2: checks plugin units for presets and makes them for chain
/// slots, so `VoiceEngine` and `VoicePresets` never import lilv.
///
/// A unit becomes a `PluginUnit` (C function pointers over the unit's process-thread state) and
/// a retained box that keeps the `LV2Unit` alive until the engine releases it, off the process
/// thread. Channel mapping on the mono voice path: see `LV2ProcessState.runBlock` (every input
/// port reads the voice; two outputs are averaged).
///
/// - Realtime: never.
public final class LV2PluginHost: PluginHost {
    /// How plugins' scheduled work runs: `.threaded` live, `.synchronous` offline (`process`).
    public let worker: LV2Configuration.WorkerMode
    /// The installed plugins, read on first use: a preset without LV2 units never pays for
    /// reading every bundle's data.
    private let loaded: Mutex<LV2World?>
    private let path: String?

    /// A host over `world`.
    public init(world: LV2World, worker: LV2Configuration.WorkerMode) {
        loaded = Mutex(world)
        path = nil
        self.worker = worker
    }

    /// A host over the plugins on `path` (nil: LV2_PATH, else lilv's default folders), read when
    /// a plugin unit is first checked or made.
    public init(path: String? = nil, worker: LV2Configuration.WorkerMode) {
        loaded = Mutex(nil)
        self.path = path
        self.worker = worker
    }

    /// The installed plugins.
    public var world: LV2World {
        loaded.withLock { world in
            if let world { return world }
            let made = LV2World(path: path)
            world = made
            return made
        }
    }

    public func parameters(of uri: String, sampleRate: Double) throws(PluginError) -> [ParameterDescriptor] {
        do throws(LV2Error) {
            let info = try world.plugin(uri)
            if let problem = info.voicePathProblem { throw LV2Error.unusablePorts(plugin: uri, reason: problem) }
            let supported = LV2Configuration(sampleRate: sampleRate, maximumBlockSize: 256).supportedFeatures
            if let missing = info.missingFeatures(supported: supported).first {
                throw LV2Error.unsupportedFeature(plugin: uri, feature: missing)
            }
            return info.parameters(sampleRate: sampleRate)
        } catch {
            throw PluginError(error.description)
        }
    }

    public func linearGainPorts(of uri: String) -> Set<String> {
        guard let info = try? world.plugin(uri) else { return [] }
        return Set(info.controlInputs.filter(\.unit.isLinearGain).map(\.symbol))
    }

    public func checkState(_ state: String) throws(PluginError) {
        if let problem = LV2StateCheck.problem(in: state) { throw PluginError(problem) }
    }

    public func makeUnit(_ settings: PluginUnitSettings, spec: ProcessSpec) throws(PluginError) -> PreparedPlugin {
        let configuration = LV2Configuration(
            sampleRate: spec.sampleRate, maximumBlockSize: spec.maximumBlockSize, worker: worker)
        let box: LV2UnitBox
        do throws(LV2Error) {
            let unit = try LV2Unit(
                world: world, uri: settings.uri, configuration: configuration,
                savedState: settings.state.isEmpty ? nil : settings.state)
            for (symbol, value) in settings.values.sorted(by: { $0.key < $1.key }) {
                try unit.setControl(symbol, value)
            }
            box = LV2UnitBox(unit)
        } catch {
            throw PluginError(error.description)
        }
        let controls = box.unit.info.controlInputs.map { (symbol: $0.symbol, port: $0.index) }
        let handle = PluginUnit(
            context: UnsafeMutableRawPointer(box.unit.state),
            owner: Unmanaged.passRetained(box).toOpaque(),
            run: { context, buffer, frames in
                context.assumingMemoryBound(to: LV2ProcessState.self).pointee.process(buffer, frames: frames)
            },
            setControl: { context, port, value in
                context.assumingMemoryBound(to: LV2ProcessState.self).pointee.setControl(port, value)
            },
            latency: { context in context.assumingMemoryBound(to: LV2ProcessState.self).pointee.reportedLatency() },
            release: { owner in Unmanaged<LV2UnitBox>.fromOpaque(owner).release() })
        return PreparedPlugin(
            unit: handle, controls: controls, notes: box.unit.notes,
            savedState: { [weak box] in box?.unit.savedState() ?? "" })
    }
}

/// Keeps an `LV2Unit` (a non-copyable value) alive behind a retainable reference while a chain
/// slot runs it; the last release deactivates and frees the plugin.
///
/// Sendable because the only use off its making thread is `savedState()`, which takes the
/// world's lock and is in LV2's own threading class for save (it may run beside run()).
final class LV2UnitBox: @unchecked Sendable {
    let unit: LV2Unit
    init(_ unit: consuming LV2Unit) { self.unit = unit }
}
