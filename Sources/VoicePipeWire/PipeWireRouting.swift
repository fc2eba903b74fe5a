/// One JACK connection, by full port names.
public struct PipeWireLink: Hashable, Sendable, CustomStringConvertible {
    public var source: String
    public var destination: String
    public var description: String { "\(source) -> \(destination)" }
}

/// Which links put voicerack between a call app and the sound card on a PipeWire desktop:
///
/// ```
///  call app ─► call node (Audio/Sink) ─monitor─► far_in_L/R ─► … ─► speaker_out_L/R ─► output device
///  input device ─► mic_in ─► … ─► voice_out ─► mic node (Audio/Source/Virtual) ─► call app
/// ```
///
/// The devices are the session's default sink and source when those are devices, else the first
/// device of each kind; never a virtual node and never one of voicerack's own, so speaker_out
/// cannot feed the call node back into far_in, even when the call node is the default sink.
///
/// - Realtime: never; main thread (pure: a graph in, links out).
public enum PipeWireRouting {
    /// The links wanted in `graph` for the JACK client `client`, and a note for each that has no
    /// port to go to yet.
    public static func links(
        in graph: PipeWireGraph, settings: PipeWireSettings, client: String
    ) -> (links: [PipeWireLink], missing: [String]) {
        let own = { (port: String) in "\(client):\(port)" }
        var links: [PipeWireLink] = []
        var missing: [String] = []
        let micInputs = graph.node(named: settings.micNode)?.ports.filter { $0.isInput && !$0.isMonitor } ?? []
        if micInputs.isEmpty { missing.append("the microphone node '\(settings.micNode)' has no input port") }
        links += micInputs.map { PipeWireLink(source: own("voice_out"), destination: $0.name) }
        let monitors = graph.node(named: settings.callNode)?.ports.filter { !$0.isInput && $0.isMonitor } ?? []
        if monitors.isEmpty { missing.append("the call node '\(settings.callNode)' has no monitor port") }
        links += pairs(monitors.map(\.name), ["far_in_L", "far_in_R"].map(own)).map(PipeWireLink.init)
        let ours: Set = [settings.micNode, settings.callNode]
        if let sink = device("Audio/Sink", preferring: graph.defaultSink, in: graph, excluding: ours) {
            let inputs = sink.ports.filter { $0.isInput && !$0.isMonitor }.map(\.name)
            links += pairs(["speaker_out_L", "speaker_out_R"].map(own), inputs).map(PipeWireLink.init)
        } else {
            missing.append("no output device")
        }
        if let source = device("Audio/Source", preferring: graph.defaultSource, in: graph, excluding: ours),
            let first = source.ports.first(where: { !$0.isInput && !$0.isMonitor })
        {
            links.append(PipeWireLink(source: first.name, destination: own("mic_in")))
        } else {
            missing.append("no input device")
        }
        return (links, missing)
    }

    /// The default node of `mediaClass` when it is a device, else the first device of that class
    /// with ports; never one of `excluded`.
    private static func device(
        _ mediaClass: String, preferring preferred: String?, in graph: PipeWireGraph, excluding excluded: Set<String>
    ) -> PipeWireGraph.Node? {
        let devices = graph.nodes.filter {
            $0.mediaClass == mediaClass && $0.isDevice && !excluded.contains($0.name) && !$0.ports.isEmpty
        }
        return devices.first { $0.name == preferred } ?? devices.first
    }

    /// Joins `sources` to `destinations` channel by channel; one source feeds every destination
    /// and one destination takes the first source (a mono node with a stereo pair).
    private static func pairs(_ sources: [String], _ destinations: [String]) -> [(String, String)] {
        guard !sources.isEmpty, !destinations.isEmpty else { return [] }
        if sources.count == 1 { return destinations.map { (sources[0], $0) } }
        return zip(sources, destinations).map { ($0, $1) }
    }
}
