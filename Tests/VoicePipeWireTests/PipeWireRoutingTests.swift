import Foundation
import Testing

@testable import VoicePipeWire

/// `PipeWireRouting` and `PipeWireGraph`: which links `--pipewire` wants in a graph, without a
/// PipeWire daemon (the live tests run one).
struct PipeWireRoutingTests {
    typealias Node = PipeWireGraph.Node
    typealias Port = PipeWireGraph.Port

    /// A node named `name` whose JACK client is `client`, with `inputs`, `outputs` and monitors.
    static func node(
        _ id: Int, _ name: String, _ mediaClass: String, device: Bool, client: String,
        inputs: [String] = [], outputs: [String] = [], monitors: [String] = []
    ) -> Node {
        let ports =
            inputs.map { Port(name: "\(client):\($0)", isInput: true, isMonitor: false) }
            + outputs.map { Port(name: "\(client):\($0)", isInput: false, isMonitor: false) }
            + monitors.map { Port(name: "\(client):\($0)", isInput: false, isMonitor: true) }
        return Node(id: id, name: name, mediaClass: mediaClass, isDevice: device, ports: ports)
    }

    /// voicerack's two nodes, a virtual sink listed before the sound card, the sound card, a
    /// headset and a microphone.
    static let nodes = [
        node(1, "voicerack-mic", "Audio/Source/Virtual", device: false, client: "vr mic", inputs: ["input_MONO"]),
        node(
            2, "voicerack-call", "Audio/Sink", device: false, client: "vr call",
            inputs: ["playback_FL", "playback_FR"],
            monitors: ["monitor_FL", "monitor_FR"]),
        node(3, "effects", "Audio/Sink", device: false, client: "effects", inputs: ["playback_FL", "playback_FR"]),
        node(
            4, "alsa_output.card", "Audio/Sink", device: true, client: "card", inputs: ["playback_FL", "playback_FR"],
            monitors: ["monitor_FL", "monitor_FR"]),
        node(5, "bluez_output.headset", "Audio/Sink", device: true, client: "headset", inputs: ["playback_MONO"]),
        node(
            6, "alsa_input.card", "Audio/Source", device: true, client: "card in",
            outputs: ["capture_FL", "capture_FR"]),
    ]

    static func links(defaultSink: String?, defaultSource: String? = nil) -> Set<String> {
        let graph = PipeWireGraph(nodes: nodes, defaultSink: defaultSink, defaultSource: defaultSource)
        let (links, missing) = PipeWireRouting.links(in: graph, settings: PipeWireSettings(), client: "vr")
        #expect(missing.isEmpty, "\(missing)")
        return Set(links.map(\.description))
    }

    @Test(
        "voice_out feeds the mic node, the call node's monitor far_in, the first device the speakers, the input device mic_in"
    )
    func wantedLinks() {
        #expect(
            Self.links(defaultSink: nil) == [
                "vr:voice_out -> vr mic:input_MONO", "vr call:monitor_FL -> vr:far_in_L",
                "vr call:monitor_FR -> vr:far_in_R", "vr:speaker_out_L -> card:playback_FL",
                "vr:speaker_out_R -> card:playback_FR", "card in:capture_FL -> vr:mic_in",
            ])
    }

    @Test(
        "speaker_out goes to the default sink when it is a device, and never to a virtual sink or voicerack's own call node when those are the default"
    )
    func noLoop() {
        let headset = Self.links(defaultSink: "bluez_output.headset")
        #expect(headset.contains("vr:speaker_out_L -> headset:playback_MONO"), "\(headset)")
        for virtual in ["voicerack-call", "effects"] {
            let links = Self.links(defaultSink: virtual)
            let speakers = links.filter { $0.hasPrefix("vr:speaker_out") }
            #expect(
                speakers == ["vr:speaker_out_L -> card:playback_FL", "vr:speaker_out_R -> card:playback_FR"], "\(links)"
            )
        }
    }

    @Test("a graph without voicerack's nodes or devices: no link, one note for each part missing")
    func missingParts() {
        let (links, missing) = PipeWireRouting.links(
            in: PipeWireGraph(nodes: [Self.nodes[2]]), settings: PipeWireSettings(), client: "vr")
        #expect(links.isEmpty)
        #expect(missing.count == 4, "\(missing)")
    }

    @Test("pw-dump's JSON: nodes with class, device and ports by their JACK names, the default metadata, WirePlumber")
    func parsesPWDump() throws {
        let json = """
            [ { "id": 30, "type": "PipeWire:Interface:Client", "info": { "props": { "application.name": "WirePlumber" } } },
              { "id": 15, "type": "PipeWire:Interface:Node",
                "info": { "props": { "node.name": "alsa_output.card", "media.class": "Audio/Sink", "device.api": "alsa" } } },
              { "id": 16, "type": "PipeWire:Interface:Port",
                "info": { "props": { "node.id": 15, "port.alias": "card:monitor_FL", "port.direction": "out", "port.monitor": true } } },
              { "id": 17, "type": "PipeWire:Interface:Port",
                "info": { "props": { "node.id": 15, "port.alias": "card:playback_FL", "port.direction": "in" } } },
              { "id": 20, "type": "PipeWire:Interface:Node",
                "info": { "props": { "node.name": "video", "media.class": "Video/Source" } } },
              { "id": 13, "type": "PipeWire:Interface:Metadata", "props": { "metadata.name": "default" },
                "metadata": [ { "subject": 0, "key": "default.audio.sink", "type": "Spa:String:JSON",
                                "value": { "name": "alsa_output.card" } } ] } ]
            """
        let graph = try #require(PipeWireGraph(pwDump: Data(json.utf8)))
        #expect(graph.hasWirePlumber)
        #expect(graph.defaultSink == "alsa_output.card" && graph.defaultSource == nil)
        #expect(
            graph.nodes == [
                Node(
                    id: 15, name: "alsa_output.card", mediaClass: "Audio/Sink", isDevice: true,
                    ports: [
                        Port(name: "card:monitor_FL", isInput: false, isMonitor: true),
                        Port(name: "card:playback_FL", isInput: true, isMonitor: false),
                    ])
            ])
        #expect(PipeWireGraph(pwDump: Data("not json".utf8)) == nil)
    }

    @Test("pw-dump's output with objects that went while it dumped: further arrays remove them")
    func parsesPWDumpUpdates() throws {
        let json = """
            [ { "id": 15, "type": "PipeWire:Interface:Node",
                "info": { "props": { "node.name": "card", "media.class": "Audio/Sink", "node.description": "a [b] \\"c\\"" } } },
              { "id": 16, "type": "PipeWire:Interface:Node",
                "info": { "props": { "node.name": "lsp", "media.class": "Audio/Duplex" } } } ]
            [ { "id": 16, "info": null } ]
            """
        let graph = try #require(PipeWireGraph(pwDump: Data(json.utf8)))
        #expect(graph.nodes.map(\.name) == ["card"])
    }
}
