import Foundation
import Testing

@testable import VoicePipeWire

/// What the PipeWire watch reads from `pw-dump --monitor` (documents cut anywhere by the reads,
/// each change a whole object, a node's mute) and how the voice mute follows the source's mute,
/// without a PipeWire daemon (the live tests run one).
struct PipeWireWatchTests {
    static let node = """
        [ { "id": 15, "type": "PipeWire:Interface:Node",
            "info": { "props": { "node.name": "voicerack-mic", "media.class": "Audio/Source/Virtual" },
                      "params": { "Props": [ { "volume": 1.0, "mute": false, "softMute": false } ] } } } ]
        """

    @Test("a monitor stream cut into 7-byte reads gives the same documents; a change replaces the node, its mute read")
    func splitsAcrossReads() throws {
        let muted = Self.node.replacingOccurrences(of: "\"mute\": false", with: "\"mute\": true")
        let text = Self.node + "\n" + muted + "\n[ { \"id\": 15, \"info\": null } ]\n"
        let bytes = Data(text.utf8)
        var splitter = PWDumpStream.Splitter()
        var stream = PWDumpStream()
        var graphs: [PipeWireGraph] = []
        for start in stride(from: 0, to: bytes.count, by: 7) {
            for document in splitter.feed(bytes.subdata(in: start..<min(bytes.count, start + 7))) {
                let applied = stream.apply(document)
                #expect(applied)
                graphs.append(PipeWireGraph(objects: stream.objects))
            }
        }
        #expect(graphs.count == 3)
        #expect(graphs.map { $0.node(named: "voicerack-mic")?.muted } == [false, true, nil])
        #expect(PWDumpStream.split(bytes).count == 3)
    }

    @Test("a node without Props has no mute (nil), not an open one")
    func noPropsNoMute() throws {
        let json = Self.node.replacingOccurrences(
            of: "\"params\": { \"Props\": [ { \"volume\": 1.0, \"mute\": false, \"softMute\": false } ] }",
            with: "\"params\": {}")
        let graph = try #require(PipeWireGraph(pwDump: Data(json.utf8)))
        #expect(graph.nodes.count == 1 && graph.nodes[0].muted == nil)
    }

    /// The actions of one `SourceMuteSync` over (source mute, voice mute, seconds) steps.
    static func actions(_ steps: [(source: Bool?, voice: Bool, at: Double)]) -> [SourceMuteSync.Action] {
        var sync = SourceMuteSync()
        let start = Date()
        return steps.map { sync.step(source: $0.source, voice: $0.voice, now: start.addingTimeInterval($0.at)) }
    }

    @Test("the desktop's mute mutes the voice and its unmute opens it; voicerack's own mute goes to the source")
    func muteFollowsBothWays() {
        let actions = Self.actions([
            (false, false, 0),
            // pactl set-source-mute voicerack-mic 1, then 0
            (true, false, 0), (true, true, 0), (false, true, 0), (false, false, 0),
            // OSC /voicerack/voice/mute 1: the source is muted; its old state, still in the graph
            // until the write shows, is not taken for the desktop opening it again.
            (false, true, 0), (false, true, 1), (true, true, 1.1),
            // The desktop opens it again.
            (false, true, 2),
        ])
        #expect(
            actions == [
                .none, .muteVoice(true), .none, .muteVoice(false), .none, .muteSource(true), .none, .none,
                .muteVoice(false),
            ])
    }

    @Test(
        "a node that appears (start, PipeWire back) is muted when either side was; a mic the user closed stays closed")
    func newNodeTakesEitherMute() {
        #expect(Self.actions([(true, false, 0)]) == [.muteVoice(true)])
        let wait = SourceMuteSync.writeWait
        let actions = Self.actions([
            (nil, true, 0), (false, true, 0),
            // A write that never shows is given up after writeWait; the graph's state is then taken.
            (false, true, 1), (false, true, wait + 0.1), (true, true, 5),
        ])
        #expect(actions == [.none, .muteSource(true), .none, .none, .none])
    }
}
