import VoiceRT
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

    /// What a call does to the slot's unit: process a block in place, or set a parameter.
    enum Change {
        case process(UnsafeMutablePointer<Float>, frames: Int)
        /// A built-in unit's descriptor index, or a plugin's port index (`PreparedPlugin.controls`).
        case parameter(index: Int, value: Float)

        /// `unit` after the change (a local copy, changed whole: see
        /// `VoiceUnit.settingParameter`). - Realtime: safe; generic, so it is checked where it is
        /// specialised (in `run`).
        @inline(__always)
        func applied<U: VoiceUnit>(to unit: U) -> U {
            var u = unit
            switch self {
            case .process(let buffer, let frames): u.process(buffer, frames: frames)
            case .parameter(let index, let value): _unsafePerformance { u.setParameter(index, value) }
            }
            return u
        }

        /// Runs the change on a plugin unit, through the host's function table. - Realtime: safe.
        @inline(__always) @_noLocks
        func apply(to unit: PluginUnit) {
            switch self {
            case .process(let buffer, let frames): unit.process(buffer, frames: frames)
            case .parameter(let index, let value): unit.setControl(index, value)
            }
        }
    }

    /// Runs `change` on the slot's unit, whichever it is. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func run(_ change: Change) {
        switch self {
        case .equalizer(let u): self = .equalizer(change.applied(to: u))
        case .gate(let u): self = .gate(change.applied(to: u))
        case .compressor(let u): self = .compressor(change.applied(to: u))
        case .deesser(let u): self = .deesser(change.applied(to: u))
        case .limiter(let u): self = .limiter(change.applied(to: u))
        case .delay(let u): self = .delay(change.applied(to: u))
        case .reverb(let u): self = .reverb(change.applied(to: u))
        case .plugin(let u): change.apply(to: u)
        }
    }

    /// Processes `frames` samples in place. - Realtime: safe.
    @_noLocks
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        run(.process(buffer, frames: frames))
    }

    /// Sets parameter `index` of the slot's unit, clamped by the unit (a plugin's: its port
    /// `index`). - Realtime: safe.
    @_noLocks
    mutating func setParameter(_ index: Int, _ value: Float) {
        run(.parameter(index: index, value: value))
    }

    /// Samples of delay the unit adds (the limiter's look-ahead, a plugin's reported latency).
    var latency: Int {
        switch self {
        case .limiter(let u): return u.latencySamples()
        case .plugin(let u): return u.latency()
        default: return 0
        }
    }

    /// Gain the unit takes off now, dB (≥ 0; 0 while bypassed); NaN for a unit without a gain
    /// reduction (not a dynamics unit). Each index is the unit's `bypass`, its last parameter
    /// (literals: reading a static descriptor array here could run its lazy initialiser).
    /// - Realtime: safe.
    var reductionDB: Float {
        @inline(__always) @_noLocks get {
            switch self {
            case .gate(let u): return u.values[5] >= 0.5 ? 0 : max(0, -u.currentGainDB())
            case .compressor(let u): return u.values[7] >= 0.5 ? 0 : u.currentReductionDB()
            case .deesser(let u): return u.values[3] >= 0.5 ? 0 : u.currentReductionDB()
            case .limiter(let u): return u.values[2] >= 0.5 ? 0 : u.currentReductionDB()
            default: return .nan
            }
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
    /// Each unit's output peak and gain reduction, published after it ran.
    let meters: ChainMeters

    /// Built-in units of `chain` made with `values` (indexed by `EffectKind.index`), plugin units
    /// taken from `plugins` (made by the host; the chain owns them from now on), metered onto
    /// `board` (one entry per unit).
    init(
        chain: [ChainUnit], values: [[Float]], plugins: [String: PreparedPlugin], spec: ProcessSpec,
        board: UnsafeMutablePointer<UnitMeterBoard>
    ) {
        count = chain.count
        meters = ChainMeters(board: board, sampleRate: spec.sampleRate)
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

    /// Runs every unit over `frames` samples in place, metering each one's output. - Realtime: safe.
    @inline(__always) @_noLocks
    func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<count {
            slots[i].process(buffer, frames: frames)
            meters.measure(i, buffer, frames: frames, reductionDB: slots[i].reductionDB)
        }
    }

    /// Frees the units and the slots. - Realtime: never.
    func deallocate() {
        for i in 0..<count { slots[i].deallocate() }
        slots.deinitialize(count: count)
        slots.deallocate()
        meters.deallocate()
    }
}
