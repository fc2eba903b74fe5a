import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// One pass of an echo scenario through a running `voicerack run`, by voicerack-testpeer.
///
/// - Realtime: never; test thread.
struct LivePlayback {
    /// The peer's recording of voice_out, as recorded (frame n in the cycle that played frame n).
    let recording: [Float]
    /// Samples the recording lags the mic (found on the near-end talker).
    let lag: Int
    /// The recording shifted by `lag`, as long as the scenario's mic.
    let aligned: [Float]
    /// The peer's report line.
    let report: String
    /// xruns during the run. A client that misses a cycle loses that block of mic and far end,
    /// while the echo of the lost far end is still to come in the mic: cancellation suffers until
    /// the canceller's history is past it. Causes seen: load and scheduling on a shared machine
    /// without real-time priority, and at 32-sample periods voicerack itself (jackd: "client vr
    /// was not finished"; a whole 256-sample canceller frame is processed in one 0.67 ms cycle).
    var xruns: Int { TestPeer.xruns(report) ?? 0 }

    /// Plays `scenario` into the client `target` on `server` and aligns what comes back.
    /// Returns nil (with an issue recorded) when the peer failed.
    static func run(
        _ scenario: EchoScenarioFiles, server: JACKServer, target: String, in folder: TemporaryFolder, name: String
    ) throws -> LivePlayback? {
        let outPath = folder.file(name)
        let peer = try TestPeer.start(
            server: server, target: target, mic: scenario.micPath, ref: scenario.referencePath, out: outPath)
        defer { peer.stop(SIGKILL) }
        guard let output = TestPeer.finish(peer) else { return nil }
        let report = TestPeer.summary(output)
        let recording = try AudioFileContents.read(outPath).channels[0]
        let lag = Alignment.lag(of: recording, behind: scenario.near, over: EchoScenarioFiles.nearEndSpan, maxLag: 8192)
        return LivePlayback(
            recording: recording, lag: lag, aligned: Alignment.shifted(recording, by: lag, length: scenario.mic.count),
            report: report)
    }
}
