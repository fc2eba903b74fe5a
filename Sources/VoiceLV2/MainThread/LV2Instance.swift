import CLilv
import Foundation
import Synchronization

/// One instantiated plugin with its features, buffers and worker: the part of an `LV2Unit` that
/// lives off the process thread. It instantiates, restores and activates in `init`, and
/// deactivates and cleans up in `deinit`, all on the thread that makes or drops it.
///
/// - Realtime: never. The process thread only sees `state`.
final class LV2Instance {
    let world: LV2World
    let info: LV2PluginInfo
    let configuration: LV2Configuration
    let state: UnsafeMutablePointer<LV2ProcessState>
    private let plugin: OpaquePointer
    private let features: LV2FeatureSet
    private let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private let channel: UnsafeMutablePointer<WorkerChannel>
    private var workerThread: LV2WorkerThread?
    private var active = false

    init(
        world: LV2World, uri: String, configuration c: LV2Configuration, savedState: String?
    )
        throws(LV2Error)
    {
        let info = try world.plugin(uri)
        if let problem = info.voicePathProblem { throw .unusablePorts(plugin: uri, reason: problem) }
        if let missing = info.missingFeatures(supported: c.supportedFeatures).first {
            throw .unsupportedFeature(plugin: uri, feature: missing)
        }
        self.world = world
        self.info = info
        configuration = c
        let plugin = world.locked { world.lilvPlugin(uri)! }
        self.plugin = plugin
        let sequenceSize = info.ports.compactMap(\.minimumSize).reduce(
            LV2Configuration.defaultSequenceSize, max)
        channel = .allocate(capacity: 1)
        channel.initialize(to: WorkerChannel(synchronous: c.worker == .synchronous))
        schedule = .allocate(capacity: 1)
        schedule.initialize(
            to: LV2_Worker_Schedule(handle: UnsafeMutableRawPointer(channel), schedule_work: scheduleWork)
        )
        let features = LV2FeatureSet(
            configuration: c, sequenceSize: sequenceSize, urids: world.urids, schedule: schedule)
        self.features = features
        let (made, messages) = LilvMessages.captured {
            world.locked({ lilv_plugin_instantiate(plugin, c.sampleRate, features.list) })
        }
        world.lilvMessages += messages
        guard let instance = made else {
            channel.deinitialize(count: 1)
            channel.deallocate()
            schedule.deallocate()
            throw .instantiationFailed(plugin: uri)
        }
        state = .allocate(capacity: 1)
        state.initialize(
            to: Self.connect(instance, info, c, sequenceSize, world.urids, worker: channel))
        if let interface = lilv_instance_get_extension_data(instance, LV2URI.workerInterface) {
            channel.pointee.interface = interface.assumingMemoryBound(to: LV2_Worker_Interface.self)
            channel.pointee.handle = lilv_instance_get_handle(instance)
            if c.worker == .threaded { workerThread = LV2WorkerThread(channel: channel) }
        }
        // A throw from here on releases self, and deinit tears the instance down.
        try restoreDefaultState()
        if let savedState { try restore(savedState) }
        lilv_instance_activate(instance)
        active = true
    }

    deinit {
        let s = state.pointee
        if active { lilv_instance_deactivate(s.instance) }
        workerThread?.stop()
        workerThread = nil
        // lilv counts each plugin library's instances in the world without a lock of its own and
        // unloads the library when the count reaches zero: a free racing an instantiate on another
        // thread could unload a library another instance still runs.
        world.locked { lilv_instance_free(s.instance) }
        for i in 0..<s.atomCount { s.atoms[i].deallocate() }
        [s.input, s.outputs, s.controls, s.lowerBounds, s.upperBounds].forEach { $0.deallocate() }
        s.atoms.deallocate()
        s.atomCapacities.deallocate()
        s.atomIsInput.deallocate()
        s.publishedLatency.deinitialize(count: 1)
        s.publishedLatency.deallocate()
        state.deallocate()
        channel.deinitialize(count: 1)
        channel.deallocate()
        schedule.deallocate()
    }

    /// Allocates the buffers and connects every port: audio inputs to the mono input, outputs to
    /// their own buffers, control ports to their slot (inputs at their default), atom ports to
    /// sequences of `sequenceSize` bytes (at least the port's declared minimum), optional others to
    /// nothing.
    private static func connect(
        _ instance: UnsafeMutablePointer<LilvInstance>, _ info: LV2PluginInfo, _ c: LV2Configuration,
        _ sequenceSize: Int, _ urids: URIDMap, worker: UnsafeMutablePointer<WorkerChannel>
    ) -> LV2ProcessState {
        let frames = c.maximumBlockSize
        let n = info.ports.count
        let input = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        input.initialize(repeating: 0, count: frames)
        let outputCount = info.audioOutputs.count
        let outputs = UnsafeMutablePointer<Float>.allocate(capacity: frames * outputCount)
        outputs.initialize(repeating: 0, count: frames * outputCount)
        let controls = UnsafeMutablePointer<Float>.allocate(capacity: max(1, n))
        controls.initialize(repeating: 0, count: max(1, n))
        let lower = UnsafeMutablePointer<Float>.allocate(capacity: max(1, n))
        lower.initialize(repeating: -.infinity, count: max(1, n))
        let upper = UnsafeMutablePointer<Float>.allocate(capacity: max(1, n))
        upper.initialize(repeating: .infinity, count: max(1, n))
        let publishedLatency = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        publishedLatency.initialize(to: Atomic(0))
        let atomPorts = info.ports.filter { $0.kind == .atom }
        let atoms = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(
            capacity: max(1, atomPorts.count))
        let capacities = UnsafeMutablePointer<Int>.allocate(capacity: max(1, atomPorts.count))
        let isInput = UnsafeMutablePointer<Bool>.allocate(capacity: max(1, atomPorts.count))
        var outputIndex = 0
        var atomIndex = 0
        for port in info.ports {
            let index = UInt32(port.index)
            switch port.kind {
            case .audio where port.isInput:
                lilv_instance_connect_port(instance, index, input)
            case .audio:
                lilv_instance_connect_port(instance, index, outputs + outputIndex * frames)
                outputIndex += 1
            case .control:
                if port.isInput {
                    let range = port.range(sampleRate: c.sampleRate)
                    lower[port.index] = range.lowerBound
                    upper[port.index] = range.upperBound
                    controls[port.index] = port.defaultValue(sampleRate: c.sampleRate)
                }
                lilv_instance_connect_port(instance, index, controls + port.index)
            case .atom:
                let bytes = max(sequenceSize, port.minimumSize ?? 0)
                atoms[atomIndex] = .allocate(byteCount: bytes, alignment: 16)
                atoms[atomIndex].initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                capacities[atomIndex] = bytes
                isInput[atomIndex] = port.isInput
                lilv_instance_connect_port(instance, index, atoms[atomIndex])
                atomIndex += 1
            case .other:
                lilv_instance_connect_port(instance, index, nil)
            }
        }
        let s = LV2ProcessState(
            instance: instance, maximumFrames: frames, input: input, outputs: outputs,
            outputCount: outputCount,
            inPlace: info.audioInputs.count == 1 && outputCount == 1 && !info.inPlaceBroken,
            firstAudioInput: info.audioInputs[0].index,
            firstAudioOutput: info.audioOutputs[0].index, controls: controls, lowerBounds: lower, upperBounds: upper,
            portCount: n,
            latencyPort: info.latencyPort?.index ?? -1, publishedLatency: publishedLatency, atoms: atoms,
            atomCapacities: capacities,
            atomIsInput: isInput, atomCount: atomIndex, sequenceType: urids.map(LV2URI.atomSequence),
            chunkType: urids.map(LV2URI.atomChunk), worker: worker)
        s.resetAtomBuffers()
        return s
    }

    // MARK: State

    /// Applies the plugin's default state (state:loadDefaultState), if its data has one.
    private func restoreDefaultState() throws(LV2Error) {
        let loaded = world.locked { () -> OpaquePointer? in
            lilv_state_new_from_world(world.world, world.urids.mapFeature, world.node(info.uri))
        }
        guard let loaded else { return }
        defer { lilv_state_free(loaded) }
        apply(loaded)
    }

    /// Restores a state saved by `savedState()`: port values and the plugin's own state.
    /// Not while the instance runs (LV2's restore is in the Instantiation threading class).
    func restore(_ text: String) throws(LV2Error) {
        if let problem = LV2StateCheck.problem(in: text) { throw .badState(plugin: info.uri, reason: problem) }
        let loaded = world.locked {
            lilv_state_new_from_string(world.world, world.urids.mapFeature, text)
        }
        guard let loaded else {
            throw .badState(plugin: info.uri, reason: "not an LV2 state in Turtle")
        }
        defer { lilv_state_free(loaded) }
        let owner = world.locked {
            lilv_state_get_plugin_uri(loaded).flatMap { lilv_node_as_uri($0) }.map { String(cString: $0) }
        }
        guard owner == info.uri else {
            throw .badState(plugin: info.uri, reason: "it belongs to '\(owner ?? "no plugin")'")
        }
        apply(loaded)
    }

    private func apply(_ loaded: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        world.locked {
            lilv_state_restore(loaded, state.pointee.instance, setPortValue, context, 0, features.list)
        }
    }

    /// The plugin's complete state (port values and its own) as Turtle text.
    /// - Realtime: never; may run while the instance runs (LV2's save has its own threading class).
    func savedState() -> String {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return world.locked {
            let saved = lilv_state_new_from_instance(
                plugin, state.pointee.instance, world.urids.mapFeature, nil, nil, nil, nil, getPortValue,
                context,
                UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features.list)
            defer { lilv_state_free(saved) }
            guard
                let text = lilv_state_to_string(
                    world.world, world.urids.mapFeature, world.urids.unmapFeature, saved,
                    "urn:voicerack:lv2-state", nil)
            else { return "" }
            defer { lilv_free(text) }
            return String(cString: text)
        }
    }

    /// Log lines the plugin wrote since the last call ("warning: ...").
    func drainLog() -> [String] { features.drainLog(urids: world.urids) }

    fileprivate func port(_ symbol: String) -> LV2Port? { info.ports.first { $0.symbol == symbol } }
    fileprivate var floatType: LV2_URID { world.urids.map(LV2URI.atomFloat) }
}

/// lilv's callback for a port value found in a state: sets a control input's slot (Float, Double
/// or Int atoms), clamped to the port's range.
private func setPortValue(
    _ symbol: UnsafePointer<CChar>?, _ context: UnsafeMutableRawPointer?, _ value: UnsafeRawPointer?,
    _ size: UInt32,
    _ type: UInt32
) {
    guard let symbol, let context, let value else { return }
    let owner = Unmanaged<LV2Instance>.fromOpaque(context).takeUnretainedValue()
    guard let port = owner.port(String(cString: symbol)), port.kind == .control, port.isInput else {
        return
    }
    let urids = owner.world.urids
    let v: Float
    switch type {
    case urids.map(LV2URI.atomFloat) where size == 4: v = value.load(as: Float.self)
    case urids.map("http://lv2plug.in/ns/ext/atom#Double") where size == 8:
        v = Float(value.load(as: Double.self))
    case urids.map(LV2URI.atomInt) where size == 4: v = Float(value.load(as: Int32.self))
    case urids.map("http://lv2plug.in/ns/ext/atom#Bool") where size == 4:
        v = Float(value.load(as: Int32.self))
    default: return
    }
    let s = owner.state.pointee
    s.controls[port.index] = min(max(v, s.lowerBounds[port.index]), s.upperBounds[port.index])
}

/// lilv's callback for saving: a control input's current value as an atom:Float.
private func getPortValue(
    _ symbol: UnsafePointer<CChar>?, _ context: UnsafeMutableRawPointer?,
    _ size: UnsafeMutablePointer<UInt32>?,
    _ type: UnsafeMutablePointer<UInt32>?
) -> UnsafeRawPointer? {
    guard let symbol, let context else { return nil }
    let owner = Unmanaged<LV2Instance>.fromOpaque(context).takeUnretainedValue()
    guard let port = owner.port(String(cString: symbol)), port.kind == .control, port.isInput else {
        return nil
    }
    size?.pointee = 4
    type?.pointee = owner.floatType
    return UnsafeRawPointer(owner.state.pointee.controls + port.index)
}
