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

    /// Like `run`, but plays again (up to `attempts` times in all) while the run had xruns, so a
    /// busy moment on the machine does not decide an ERLE comparison. `before` runs before each
    /// attempt and `after` after it: start a fresh voicerack in `before` (`FreshVoicerack`), and
    /// a recorder around it.
    static func runAvoidingXruns(
        _ scenario: EchoScenarioFiles, server: JACKServer, target: String, in folder: TemporaryFolder,
        attempts: Int = 3, before: () throws -> Void = {}, after: () throws -> Void = {}
    ) throws -> LivePlayback? {
        var last: LivePlayback?
        for attempt in 1...attempts {
            try before()
            last = try run(scenario, server: server, target: target, in: folder, name: "live-\(attempt).wav")
            try after()
            guard let played = last, played.xruns > 0 else { break }
            print(
                "live-path: attempt \(attempt) had \(played.xruns) xruns\(attempt < attempts ? "; playing again" : "")")
        }
        return last
    }
}

/// One voicerack per playback attempt: a voicerack that already heard the scenario has a
/// converged canceller and a settled delay estimate, so playing it again measures another
/// engine than offline `process` does (once 49.65 dB live against at least 51.13 offline).
/// `next()` stops the previous one cleanly (SIGINT) and starts a new one. - Test thread.
final class FreshVoicerack {
    private let start: () throws -> ChildProcess
    /// The voicerack of the latest attempt.
    private(set) var current: ChildProcess?

    init(_ start: @escaping () throws -> ChildProcess) { self.start = start }

    func next() throws {
        stop()
        current = try start()
    }

    func stop() {
        current?.stop(SIGINT, grace: 10)
        current = nil
    }
}
