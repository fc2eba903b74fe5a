import VoiceUnits

/// One unit of the effect chain, as a concrete type: the render cycle switches over the cases, so
/// there is no existential or generic dispatch on the process thread.
///
/// - Realtime: `process` and `latency` are safe; `make` and `deallocate` are not.
enum EffectSlot {
    case equalizer(Equalizer)
    case gate(NoiseGate)
    case compressor(Compressor)
    case deesser(DeEsser)
    case limiter(Limiter)
    case delay(Delay)
    case reverb(Reverb)
    /// A plugin unit (LV2), run through the host's function table.
    case plugin(PluginUnit)

    /// A prepared unit of `kind` with `values` (one per parameter, in index order).
    static func make(_ kind: EffectKind, values: [Float], spec: ProcessSpec) -> EffectSlot {
        func configured<U: VoiceUnit>(_ unit: U) -> U {
            var u = unit
            for (i, v) in values.enumerated() { u.setParameter(i, v) }
            u.prepare(spec)
            return u
        }
        switch kind {
        case .equalizer: return .equalizer(configured(Equalizer()))
        case .gate: return .gate(configured(NoiseGate()))
        case .compressor: return .compressor(configured(Compressor()))
        case .deesser: return .deesser(configured(DeEsser()))
        case .limiter: return .limiter(configured(Limiter()))
        case .delay: return .delay(configured(Delay()))
        case .reverb: return .reverb(configured(Reverb()))
        }
    }

    /// Processes `frames` samples in place. - Realtime: safe.
    @_noLocks
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        switch self {
        case .equalizer(var u):
            u.process(buffer, frames: frames)
            self = .equalizer(u)
        case .gate(var u):
            u.process(buffer, frames: frames)
            self = .gate(u)
        case .compressor(var u):
            u.process(buffer, frames: frames)
            self = .compressor(u)
        case .deesser(var u):
            u.process(buffer, frames: frames)
            self = .deesser(u)
        case .limiter(var u):
            u.process(buffer, frames: frames)
            self = .limiter(u)
        case .delay(var u):
            u.process(buffer, frames: frames)
            self = .delay(u)
        case .reverb(var u):
            u.process(buffer, frames: frames)
            self = .reverb(u)
        case .plugin(let u):
            u.process(buffer, frames: frames)
        }
    }

    /// Samples of delay the unit adds (the limiter's look-ahead, a plugin's reported latency).
    var latency: Int {
        switch self {
        case .limiter(let u): return u.latencySamples()
        case .plugin(let u): return u.latency()
        default: return 0
        }
    }

    /// Frees what the unit allocated in `prepare`. - Realtime: never.
    mutating func deallocate() {
        switch self {
        case .limiter(var u):
            u.deallocate()
            self = .limiter(u)
        case .delay(var u):
            u.deallocate()
            self = .delay(u)
        case .reverb(var u):
            u.deallocate()
            self = .reverb(u)
        case .plugin(let u):
            u.release()
        default: break
        }
    }
}

/// The effect chain: slots allocated once, run in preset order on each block of voice.
///
/// - Realtime: `process` is safe; `init` and `deallocate` are not.
struct EffectChain {
    let slots: UnsafeMutablePointer<EffectSlot>
    let count: Int

    /// Built-in units of `chain` made with `values` (indexed by `EffectKind.index`), plugin units
    /// taken from `plugins` (made by the host; the chain owns them from now on).
    init(chain: [ChainUnit], values: [[Float]], plugins: [String: PreparedPlugin], spec: ProcessSpec) {
        count = chain.count
        slots = .allocate(capacity: max(1, count))
        for (i, unit) in chain.enumerated() {
            switch unit {
            case .builtIn(let kind):
                (slots + i).initialize(to: EffectSlot.make(kind, values: values[kind.index], spec: spec))
            case .plugin(let name):
                (slots + i).initialize(to: .plugin(plugins[name]!.unit))
            }
        }
    }

    /// Samples of delay the chain adds in total, as its units report it now (a plugin may change
    /// its latency port while it runs). - Realtime: safe; other threads read it too.
    var latency: Int {
        var total = 0
        for i in 0..<count { total += slots[i].latency }
        return total
    }

    /// Runs every unit over `frames` samples in place. - Realtime: safe.
    @inline(__always) @_noLocks
    func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<count { slots[i].process(buffer, frames: frames) }
    }

    /// Frees the units and the slots. - Realtime: never.
    func deallocate() {
        for i in 0..<count { slots[i].deallocate() }
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}
