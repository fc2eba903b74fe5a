import VoiceEcho
import VoiceRT
import VoiceUnits

/// Where a live parameter lands in the engine: built by name when the engine is built, looked up
/// by `ParameterID` on the process thread.
///
/// Entries are sorted by identifier in memory allocated once, so a lookup is a binary search with
/// no allocation (a full chain has about 60 entries: six comparisons). Building the table checks
/// that no two names share an identifier, so a hash collision can never rewire a message: the
/// engine refuses to build, naming both controls (and a test builds the table for every unit).
///
/// - Realtime: `route(for:)` is safe; `init` and `deallocate` are not.
struct ControlTable {
    /// What a parameter controls; `index` is the parameter's position in its unit's own
    /// descriptors, found by name when the table is built.
    enum Route: BitwiseCopyable, Equatable {
        case inputGain(index: Int)
        case leveller(index: Int)
        case outputGain(index: Int)
        /// 0 voice left, 1 voice right, 2 far, 3 master (`MonitorGains.setTarget`).
        case monitor(gain: Int)
        case duckingDepth
        case feedbackGuard
        case unmuteMonitor
        /// One of the echo canceller's own (its post-filter's strengths, the residual echo gate).
        case canceller(EchoParameter)
        /// A chain slot's parameter: a built-in unit's descriptor index, or a plugin's port index.
        case effect(slot: Int, index: Int)
    }

    struct Entry: BitwiseCopyable {
        let id: UInt32
        let route: Route
    }

    let entries: UnsafeMutablePointer<Entry>
    let count: Int

    /// The table for an engine whose chain runs `chain`, its plugin units' controls from
    /// `plugins` (`eq.gain_1` routes to plugin slot `eq`'s port of symbol `gain_1`). The engine
    /// checks `clash(chain:plugins:)` first; a clash here is a programming error.
    /// - Realtime: never.
    init(chain: [ChainUnit], plugins: [String: PreparedPlugin] = [:]) {
        let named = Self.names(chain: chain, plugins: plugins)
        if let clash = Self.clash(among: named.map(\.0)) { preconditionFailure(clash) }
        let sorted = named.map { Entry(id: ParameterID($0.0).rawValue, route: $0.1) }.sorted { $0.id < $1.id }
        count = sorted.count
        entries = .allocate(capacity: max(1, count))
        entries.initialize(from: sorted, count: count)
    }

    /// Why the controls of `chain` cannot share one table: two names with one identifier (a
    /// 32-bit hash of the name; user-named plugin units make any name possible), or nil.
    /// - Realtime: never.
    static func clash(chain: [ChainUnit], plugins: [String: PreparedPlugin]) -> String? {
        clash(among: names(chain: chain, plugins: plugins).map(\.0))
    }

    private static func clash(among names: [String]) -> String? {
        var seen: [UInt32: String] = [:]
        for name in names {
            let id = ParameterID(name).rawValue
            if let other = seen[id], other != name {
                return "the controls '\(other)' and '\(name)' share the message identifier \(ParameterID(name)) "
                    + "(a hash of the name), so messages to one would reach both; rename one of their units"
            }
            seen[id] = name
        }
        return nil
    }

    /// Every control name of an engine running `chain`, with its route.
    private static func names(chain: [ChainUnit], plugins: [String: PreparedPlugin]) -> [(String, Route)] {
        var named = EngineControl.routed.map { ($0.name, $0.route!) }
        for (slot, unit) in chain.enumerated() {
            switch unit {
            case .builtIn(let kind):
                named += kind.parameters.enumerated().map {
                    (ControlNames.effect(kind, $0.element.id), .effect(slot: slot, index: $0.offset))
                }
            case .plugin(let name):
                named += (plugins[name]?.controls ?? []).map {
                    (ControlNames.plugin(name, $0.symbol), .effect(slot: slot, index: $0.port))
                }
            }
        }
        return named
    }

    /// The route of `parameter`, or nil when this engine has no such parameter. - Realtime: safe.
    @inline(__always) @_noLocks
    func route(for parameter: ParameterID) -> Route? {
        var low = 0, high = count - 1
        let id = parameter.rawValue
        while low <= high {
            let mid = (low + high) >> 1
            let e = entries[mid].id
            if e == id { return entries[mid].route }
            if e < id { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }

    /// Frees the entries. - Realtime: never.
    func deallocate() { entries.deallocate() }
}
