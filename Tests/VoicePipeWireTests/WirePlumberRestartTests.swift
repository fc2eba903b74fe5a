import Foundation
import Testing

@testable import VoicePipeWire

/// `WirePlumberRestart`: a new WirePlumber that leaves a stream idle or a port missing for 5 s
/// is a stall, said once; one that links everything again is not.
@Suite struct WirePlumberRestartTests {
    func graph(wirePlumber: Set<Int>, idle: [String] = []) -> PipeWireGraph {
        var graph = PipeWireGraph(nodes: [])
        graph.wirePlumberClients = wirePlumber
        graph.idleStreams = idle
        return graph
    }

    @Test("a WirePlumber restarted alone that leaves a stream idle for 5 s: one warning with the remedy")
    func stall() {
        var watch = WirePlumberRestart()
        let start = Date()
        #expect(watch.update(graph: graph(wirePlumber: [10, 11]), run: 1, missing: [], now: start) == .init())
        let away = watch.update(graph: graph(wirePlumber: []), run: 1, missing: [], now: start + 1)
        #expect(away.notes.count == 1 && !away.stalled)
        let back = graph(wirePlumber: [20, 21], idle: ["paplay"])
        #expect(watch.update(graph: back, run: 1, missing: [], now: start + 1.5).notes.isEmpty)
        #expect(watch.update(graph: back, run: 1, missing: [], now: start + 6.4).notes.isEmpty)
        let stalled = watch.update(graph: back, run: 1, missing: [], now: start + 6.5)
        #expect(stalled.stalled)
        #expect(stalled.notes.last?.contains(WirePlumberRestart.remedy) == true)
        #expect(stalled.notes.last?.contains("the stream 'paplay' is not linked") == true)
        #expect(watch.update(graph: back, run: 1, missing: [], now: start + 20) == .init(), "said once")
    }

    @Test(
        "a new WirePlumber seen without the old one's going (PipeWire reuses ids, not serials); it links everything: no warning"
    )
    func relinked() {
        var watch = WirePlumberRestart()
        let start = Date()
        _ = watch.update(graph: graph(wirePlumber: [10, 11]), run: 1, missing: [], now: start)
        let missing = ["no output device"]
        #expect(watch.update(graph: graph(wirePlumber: [30, 31]), run: 1, missing: missing, now: start + 1) == .init())
        let linked = watch.update(graph: graph(wirePlumber: [30, 31]), run: 1, missing: [], now: start + 2)
        #expect(
            !linked.stalled && linked.notes == ["pipewire: WirePlumber restarted; every link and stream is there again"]
        )
        #expect(watch.update(graph: graph(wirePlumber: [30, 31]), run: 1, missing: missing, now: start + 9) == .init())
    }

    @Test("PipeWire restarted (a new pw-dump run), WirePlumber with it: nothing to say")
    func pipeWireRestart() {
        var watch = WirePlumberRestart()
        let start = Date()
        _ = watch.update(graph: graph(wirePlumber: [10, 11]), run: 1, missing: [], now: start)
        let idle = graph(wirePlumber: [40, 41], idle: ["paplay"])
        #expect(watch.update(graph: idle, run: 2, missing: [], now: start + 1) == .init())
        #expect(watch.update(graph: idle, run: 2, missing: [], now: start + 10) == .init())
    }
}
