import CLilv
import Foundation

/// The installed LV2 plugins, read once by lilv, and the URID map every instance shares.
///
/// lilv's world is not thread-safe, so every use of it goes through one lock; instances made
/// from it (`LV2Unit`) keep the world alive. Loading reads every bundle's Turtle data on
/// `path` (the LV2_PATH form, folders joined by ':'), or on LV2_PATH / lilv's default folders.
///
/// - Realtime: never.
public final class LV2World: @unchecked Sendable {
    let world: OpaquePointer
    /// The map handed to plugins, shared by all instances of this world.
    public let urids = URIDMap()
    private let lock = NSLock()
    private var nodes: [String: OpaquePointer] = [:]
    /// What lilv printed while loading bundles and instantiating plugins (kept off the
    /// terminal by `LilvMessages`), oldest first, for a log at debug level. Main thread.
    public internal(set) var lilvMessages: [String] = []

    /// Loads the plugins found on `path` (nil: LV2_PATH, else lilv's default folders).
    public init(path: String? = nil) {
        world = lilv_world_new()
        if let path {
            let node = lilv_new_string(world, path)
            lilv_world_set_option(world, "http://drobilla.net/ns/lilv#lv2-path", node)
            lilv_node_free(node)
        }
        let world = world
        lilvMessages = LilvMessages.captured { lilv_world_load_all(world) }.1
    }

    deinit {
        nodes.values.forEach { lilv_node_free($0) }
        lilv_world_free(world)
    }

    /// Runs `body` holding the world's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A URI node, made once and kept for the world's lifetime. Call with the lock held.
    func node(_ uri: String) -> OpaquePointer {
        if let n = nodes[uri] { return n }
        let n = lilv_new_uri(world, uri)!
        nodes[uri] = n
        return n
    }

    /// Every installed plugin, sorted by URI.
    public func allPlugins() -> [LV2PluginInfo] {
        locked {
            var result: [LV2PluginInfo] = []
            eachLilvPlugin { result.append(describe($0)) }
            return result.sorted { $0.uri < $1.uri }
        }
    }

    /// Calls `body` with each of lilv's installed plugins. Call with the lock held.
    func eachLilvPlugin(_ body: (OpaquePointer) -> Void) {
        let plugins = lilv_world_get_all_plugins(world)
        var i = lilv_plugins_begin(plugins)
        while !lilv_plugins_is_end(plugins, i) {
            if let p = lilv_plugins_get(plugins, i) { body(p) }
            i = lilv_plugins_next(plugins, i)
        }
    }

    /// The plugin with `uri`, or `LV2Error.unknownPlugin` with the nearest installed URI.
    public func plugin(_ uri: String) throws(LV2Error) -> LV2PluginInfo {
        if let info = locked({ lilvPlugin(uri).map(describe) }) { return info }
        throw .unknownPlugin(
            uri: uri, suggestion: NearMatch.closest(to: uri, in: allPlugins().map(\.uri)))
    }

    /// lilv's plugin for `uri`; nil for a string that is not a URI (lilv would print "attempt
    /// to map invalid URI" for it). Call with the lock held.
    func lilvPlugin(_ uri: String) -> OpaquePointer? {
        guard uri.contains(":") else { return nil }
        let plugins = lilv_world_get_all_plugins(world)
        let node = lilv_new_uri(world, uri)
        defer { lilv_node_free(node) }
        return lilv_plugins_get_by_uri(plugins, node)
    }

    /// Reads a plugin's description. Call with the lock held.
    func describe(_ p: OpaquePointer) -> LV2PluginInfo {
        let nameNode = lilv_plugin_get_name(p)
        defer { lilv_node_free(nameNode) }
        let required = lilv_plugin_get_required_features(p)
        defer { lilv_nodes_free(required) }
        return LV2PluginInfo(
            uri: string(lilv_plugin_get_uri(p)) ?? "",
            name: string(nameNode) ?? "",
            ports: (0..<Int(lilv_plugin_get_num_ports(p))).map { describePort(p, $0) },
            requiredFeatures: strings(required),
            hardRTCapable: lilv_plugin_has_feature(p, node(LV2URI.hardRTCapable)),
            inPlaceBroken: lilv_plugin_has_feature(p, node(LV2URI.inPlaceBroken)),
            hasWorker: lilv_plugin_has_extension_data(p, node(LV2URI.workerInterface)),
            category: category(p))
    }

    /// The label of the plugin's class without lilv's " Plugin" ending (`Limiter Plugin` reads
    /// `Limiter`); `Plugin` for the bare class.
    private func category(_ p: OpaquePointer) -> String {
        let label = lilv_plugin_get_class(p).flatMap { string(lilv_plugin_class_get_label($0)) } ?? "Plugin"
        return label.hasSuffix(" Plugin") ? String(label.dropLast(" Plugin".count)) : label
    }

    private func describePort(_ p: OpaquePointer, _ index: Int) -> LV2Port {
        let port = lilv_plugin_get_port_by_index(p, UInt32(index))
        func isA(_ uri: String) -> Bool { lilv_port_is_a(p, port, node(uri)) }
        func has(_ uri: String) -> Bool { lilv_port_has_property(p, port, node(uri)) }
        let kind: LV2Port.Kind =
            isA(LV2URI.audioPort)
            ? .audio : isA(LV2URI.controlPort) ? .control : isA(LV2URI.atomPort) ? .atom : .other
        var def: OpaquePointer?
        var low: OpaquePointer?
        var high: OpaquePointer?
        lilv_port_get_range(p, port, &def, &low, &high)
        defer { [def, low, high].forEach { lilv_node_free($0) } }
        let nameNode = lilv_port_get_name(p, port)
        defer { lilv_node_free(nameNode) }
        let unitNode = lilv_port_get(p, port, node(LV2URI.unitsUnit))
        defer { lilv_node_free(unitNode) }
        let unitSymbol = unitNode.flatMap { lilv_world_get(world, $0, node(LV2URI.unitsSymbol), nil) }
        defer { lilv_node_free(unitSymbol) }
        let sizeNode = lilv_port_get(p, port, node(LV2URI.minimumSize))
        defer { lilv_node_free(sizeNode) }
        let designation = lilv_port_get(p, port, node(LV2URI.designation))
        defer { lilv_node_free(designation) }
        var described = LV2Port(
            index: index, symbol: string(lilv_port_get_symbol(p, port)) ?? "port\(index)",
            name: string(nameNode) ?? "", kind: kind, isInput: isA(LV2URI.inputPort),
            minimum: number(low), maximum: number(high), declaredDefault: number(def),
            scalesWithSampleRate: has(LV2URI.sampleRateProperty), toggled: has(LV2URI.toggled),
            integer: has(LV2URI.integer),
            reportsLatency: kind == .control && !isA(LV2URI.inputPort)
                && (has(LV2URI.reportsLatency) || string(designation) == LV2URI.latencyDesignation),
            connectionOptional: has(LV2URI.connectionOptional),
            unit: LV2PortUnit(uri: unitNode.flatMap(string), symbol: unitSymbol.flatMap(string)),
            minimumSize: sizeNode.flatMap { lilv_node_is_int($0) ? Int(lilv_node_as_int($0)) : nil })
        described.scalePoints = scalePoints(p, port)
        return described
    }

    /// The port's lv2:scalePoint values with their labels, by value. Call with the lock held.
    private func scalePoints(_ p: OpaquePointer, _ port: OpaquePointer?) -> [LV2ScalePoint] {
        guard let points = lilv_port_get_scale_points(p, port) else { return [] }
        defer { lilv_scale_points_free(points) }
        var result: [LV2ScalePoint] = []
        var i = lilv_scale_points_begin(points)
        while !lilv_scale_points_is_end(points, i) {
            if let point = lilv_scale_points_get(points, i), let value = number(lilv_scale_point_get_value(point)),
                let label = string(lilv_scale_point_get_label(point))
            {
                result.append(LV2ScalePoint(value: value, label: label))
            }
            i = lilv_scale_points_next(points, i)
        }
        return result.sorted { $0.value < $1.value }
    }

    private func string(_ n: OpaquePointer?) -> String? {
        guard let n, let s = lilv_node_as_string(n) else { return nil }
        return String(cString: s)
    }

    private func number(_ n: OpaquePointer?) -> Float? {
        guard let n, lilv_node_is_float(n) || lilv_node_is_int(n) else { return nil }
        return lilv_node_as_float(n)
    }

    private func strings(_ list: UnsafeMutableRawPointer?) -> [String] {
        guard let list else { return [] }
        var result: [String] = []
        var i = lilv_nodes_begin(list)
        while !lilv_nodes_is_end(list, i) {
            if let s = string(lilv_nodes_get(list, i)) { result.append(s) }
            i = lilv_nodes_next(list, i)
        }
        return result
    }
}
