import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// The live path at small, default and large periods: it runs, cancels, survives, and reports
/// voice_out's latency as the engine's plus the capture port's (one period on the dummy driver).
///
/// In the serialized live suite, so only one jackd runs at a time (arguments run one by one).
extension LiveClientTests {
    @Test(
        "cancels echo and reports engine latency + period at periods 32, 256 and 1024",
        .enabled(
            if: TestPeer.executable != nil && Tools.jackBufsize != nil,
            "voicerack-testpeer or jack_bufsize missing; skipping"),
        arguments: [32, 256, 1024])
    func periods(period: Int) throws {
        let folder = try TemporaryFolder()
        let scenario = try EchoScenarioFiles(in: folder)
        let server = try JACKServer()
        defer { server.stop() }
        try setPeriod(period, on: server)
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }
        let latency = try #require(Self.statedLatency(voicerack.output), "\(voicerack.output)")
        #expect(voicerack.output.contains("\(period)-sample periods"), "\(voicerack.output)")

        let live = try #require(
            try LivePlayback.run(scenario, server: server, target: Self.client, in: folder, name: "live-\(period).wav"))
        #expect(voicerack.isRunning, "voicerack died during playback:\n\(voicerack.output)")
        let liveERLE = erle(mic: scenario.mic, voice: live.aligned, over: EchoScenarioFiles.farEndOnly)
        if live.xruns == 0 {
            #expect(liveERLE > 15, "period \(period): live ERLE \(liveERLE) dB")
        } else {
            // Not retried: at 32-sample periods voicerack overruns on every run here (see
            // LivePlayback.xruns), so the cancellation figure says more about the machine than
            // the path. Still checked, but as a known issue.
            withKnownIssue("\(live.xruns) xruns during playback at period \(period)", isIntermittent: true) {
                #expect(liveERLE > 15, "period \(period): live ERLE \(liveERLE) dB with \(live.xruns) xruns")
            }
        }

        // The peer has left, so mic_in is free: feed it from the dummy driver's capture port,
        // whose capture latency is one period, as a sound card's would be.
        #expect(try server.connect("system:capture_1", "\(Self.client):mic_in") == 0)
        let expected = latency + period
        var shown = ""
        let reported = poll(timeout: 10) {
            shown = (try? server.lsp(["-l", "\(Self.client):voice_out"])) ?? ""
            return shown.contains("capture latency = [ \(expected) \(expected) ]")
        }
        print(
            "live-path: period \(period): live ERLE \(fmt(liveERLE)) dB, offset \(live.lag) samples, engine latency \(latency), voice_out capture latency \(reported ? "\(expected)" : shown); \(live.report)"
        )
        #expect(reported, "period \(period): expected \(expected) (engine \(latency) + period), jack_lsp says \(shown)")

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
    }

    /// Sets the server's period with jack_bufsize (the shared JACKServer starts at 256) and waits
    /// until the dummy driver's capture port reports it as its latency.
    func setPeriod(_ period: Int, on server: JACKServer) throws {
        guard period != 256 else { return }
        try #require(try server.setBufferSize(period) == 0, "jack_bufsize \(period) failed")
        let applied = poll(timeout: 10) {
            (try? server.lsp(["-l", "system:capture_1"]))?.contains("capture latency = [ \(period) \(period) ]") == true
        }
        try #require(applied, "the server did not switch to \(period)-sample periods")
    }
}
