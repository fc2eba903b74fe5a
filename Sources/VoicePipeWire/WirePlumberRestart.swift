import Foundation

/// Tells the user when WirePlumber restarted alone and did not link the desktop again.
///
/// WirePlumber 0.4.13 (Debian 12) sets up each adapter node's ports when it starts, and each
/// app stream's when it links it, and waits until they change. A node already set up the same
/// way (an app's stream that played across the restart, a config node that played before it)
/// does not change them: WirePlumber waits for ever and links no stream at all until PipeWire
/// restarts too (WirePlumber's issue 527, fixed in 0.5 by commit 78fe6f1e; docs/pipewire.md).
/// voicerack cannot undo that, so it watches for it: WirePlumber's clients with new serials
/// mean a new WirePlumber; when, `patience` seconds later, an app's stream is still idle or
/// voicerack's links still miss a port, it says what to do, in the log and in one desktop
/// notification.
///
/// - Realtime: never; main thread (pure: graphs in, steps out).
public struct WirePlumberRestart {
    /// What to say after a look at the graph.
    public struct Step: Sendable, Equatable {
        /// Lines for the log.
        public var notes: [String] = []
        /// True when the last note is the warning (log it as one, and notify the desktop).
        public var stalled = false
    }

    private var run = -1
    /// The ids of the last WirePlumber seen, and whether it went away since.
    private var known: Set<Int> = []
    private var away = false
    /// When a new WirePlumber came, while its set-up is awaited.
    private var cameBack: Date?

    /// Seconds a new WirePlumber has to give voicerack's links their ports back.
    public static let patience = 5.0
    /// What to run instead: PipeWire, its Pulse server and WirePlumber, restarted together.
    public static let remedy = "systemctl --user restart pipewire pipewire-pulse wireplumber"
    /// The desktop notification's summary and body.
    public static let noticeSummary = "Sound stalled: restart PipeWire"
    public static let noticeBody =
        "WirePlumber restarted alone and links no sound until PipeWire restarts with it: \(remedy)"

    public init() {}

    /// The step for `graph`, read by pw-dump's run `run` (a new run: PipeWire restarted, and
    /// WirePlumber with it), with `missing` the notes of voicerack's links that have no port yet.
    /// An app's stream that is idle counts as missing too (a paused one looks the same: the
    /// advice then comes once, needlessly).
    public mutating func update(graph: PipeWireGraph, run: Int, missing: [String], now: Date) -> Step {
        let ids = graph.wirePlumberClients
        guard run == self.run else {
            (self.run, known, away, cameBack) = (run, ids, false, nil)
            return Step()
        }
        var step = Step()
        if ids.isEmpty {
            if !known.isEmpty, !away {
                away = true
                step.notes.append("pipewire: WirePlumber went away; voicerack links again once the ports are back")
            }
        } else if ids.isDisjoint(with: known) {
            if !known.isEmpty { cameBack = now }
            (known, away) = (ids, false)
        }
        guard let since = cameBack else { return step }
        let missing = missing + graph.idleStreams.map { "the stream '\($0)' is not linked" }
        if missing.isEmpty {
            cameBack = nil
            step.notes.append("pipewire: WirePlumber restarted; every link and stream is there again")
        } else if now.timeIntervalSince(since) >= Self.patience {
            cameBack = nil
            step.stalled = true
            step.notes.append(
                "pipewire: WirePlumber restarted alone and has not linked the desktop again within \(Int(Self.patience)) s (\(missing.joined(separator: "; "))). WirePlumber 0.4 hangs so when a stream or a used node outlives it, and links no sound until PipeWire restarts too: run \(Self.remedy) (voicerack follows with --wait-for-server)"
            )
        }
        return step
    }
}
