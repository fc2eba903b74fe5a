import Foundation

/// What voicerack needs to know of a PipeWire graph to link itself into a desktop: the audio
/// nodes with their class and ports (by the names PipeWire's JACK gives them), which of them are
/// devices, and the session manager's default sink and source.
///
/// Read from `pw-dump`'s JSON: JACK shows a null sink's ports as physical, like a sound card's,
/// so only PipeWire itself tells a device from a virtual sink.
///
/// - Realtime: never; main thread.
public struct PipeWireGraph: Sendable, Equatable {
    /// One port of a node.
    public struct Port: Sendable, Equatable {
        /// The full JACK name (`port.alias`, e.g. `voicerack call audio:monitor_FL`).
        public var name: String
        /// True for an input (`port.direction = in`).
        public var isInput: Bool
        /// True for a sink's monitor output.
        public var isMonitor: Bool
    }

    /// One audio node.
    public struct Node: Sendable, Equatable {
        public var id: Int
        /// `node.name`, e.g. `voicerack-call`.
        public var name: String
        /// `media.class`, e.g. `Audio/Sink`.
        public var mediaClass: String
        /// True when a device monitor made it for a sound card or headset (`device.api` is set):
        /// never one of the virtual sinks or sources that programs make.
        public var isDevice: Bool
        public var ports: [Port] = []
        /// The node's own mute (its `Props` `mute`, what `pactl set-source-mute` sets on a node
        /// with no device route); nil when its parameters were not read.
        public var muted: Bool? = nil
    }

    public var nodes: [Node] = []
    /// `node.name` of the default sink and source (the `default` metadata), nil without a
    /// session manager.
    public var defaultSink: String?
    public var defaultSource: String?
    /// True when WirePlumber (or another client that calls itself so) is connected.
    public var hasWirePlumber: Bool { !wirePlumberClients.isEmpty }
    /// The `object.serial`s of WirePlumber's clients (it has two): PipeWire reuses ids, never
    /// serials, so a restarted WirePlumber has new ones.
    public var wirePlumberClients: Set<Int> = []
    /// The names of apps' audio streams (`Stream/Output/Audio`, `Stream/Input/Audio`) that are
    /// not running: not linked, or paused.
    public var idleStreams: [String] = []

    /// Parses `pw-dump` output (PWDumpStream.swift); nil when it is not JSON arrays of objects.
    public init?(pwDump data: Data) {
        guard let objects = PWDumpStream.objects(data) else { return nil }
        self.init(objects: objects)
    }

    /// The graph of pw-dump's objects (`PWDumpStream.objects`).
    public init(objects: [[String: Any]]) {
        var ports: [(node: Int, port: Port)] = []
        for object in objects {
            let type = (object["type"] as? String ?? "").split(separator: ":").last.map(String.init) ?? ""
            let info = object["info"] as? [String: Any]
            let props = info?["props"] as? [String: Any] ?? object["props"] as? [String: Any] ?? [:]
            switch type {
            case "Node" where (props["media.class"] as? String)?.hasPrefix("Stream/") == true:
                if info?["state"] as? String != "running" {
                    idleStreams.append(props["node.name"] as? String ?? "stream \(object["id"] ?? "")")
                }
            case "Node":
                guard let id = object["id"] as? Int, let name = props["node.name"] as? String,
                    let mediaClass = props["media.class"] as? String, mediaClass.hasPrefix("Audio/")
                else { continue }
                nodes.append(
                    Node(
                        id: id, name: name, mediaClass: mediaClass, isDevice: props["device.api"] != nil,
                        muted: Self.muted(info)))
            case "Port":
                guard let node = props["node.id"] as? Int, let alias = props["port.alias"] as? String else { continue }
                let monitor = props["port.monitor"] as? Bool ?? false
                ports.append(
                    (node, Port(name: alias, isInput: props["port.direction"] as? String == "in", isMonitor: monitor)))
            case "Metadata" where props["metadata.name"] as? String == "default":
                for entry in object["metadata"] as? [[String: Any]] ?? [] {
                    let name = (entry["value"] as? [String: Any])?["name"] as? String
                    switch entry["key"] as? String {
                    case "default.audio.sink": defaultSink = name
                    case "default.audio.source": defaultSource = name
                    default: break
                    }
                }
            case "Client":
                if (props["application.name"] as? String)?.hasPrefix("WirePlumber") == true {
                    wirePlumberClients.insert(props["object.serial"] as? Int ?? object["id"] as? Int ?? -1)
                }
            default:
                continue
            }
        }
        for (node, port) in ports {
            if let index = nodes.firstIndex(where: { $0.id == node }) { nodes[index].ports.append(port) }
        }
    }

    /// A node's mute from its `Props` parameters; nil without them.
    private static func muted(_ info: [String: Any]?) -> Bool? {
        let params = info?["params"] as? [String: Any]
        return (params?["Props"] as? [[String: Any]])?.lazy.compactMap { $0["mute"] as? Bool }.first
    }

    /// A graph of `nodes` (tests).
    public init(nodes: [Node], defaultSink: String? = nil, defaultSource: String? = nil) {
        self.nodes = nodes
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
    }

    /// The node called `name`, if any.
    public func node(named name: String) -> Node? { nodes.first { $0.name == name } }
}
