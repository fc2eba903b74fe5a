import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// A buffer-size change (256 → 1024) while the peer plays: voicerack must swap engines, stay in
/// the graph and keep producing voice.
///
/// In the serialized live suite, so only one jackd runs at a time.
extension LiveClientTests {
    @Test(
        "a buffer-size change mid-playback keeps the client alive and the voice flowing",
        .enabled(
            if: TestPeer.executable != nil && Tools.jackBufsize != nil,
            "voicerack-testpeer or jack_bufsize missing; skipping"))
    func bufferSizeChangeDuringPlayback() throws {
        let folder = try TemporaryFolder()
        let scenario = try EchoScenarioFiles(in: folder)
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }

        let outPath = folder.file("live-change.wav")
        let peer = try TestPeer.start(
            server: server, target: Self.client, mic: scenario.micPath, ref: scenario.referencePath, out: outPath)
        defer { peer.stop(SIGKILL) }
        let playing = poll(timeout: 20) { !peer.isRunning || peer.output.contains("testpeer: connected") }
        try #require(playing && peer.isRunning, "the peer did not start playing:\n\(peer.output)")
        // About 3 s into the 12 s scenario (the dummy driver runs in real time): well before the
        // near-end talker at 8.5 s, so the voice after the change can be checked.
        _ = poll(timeout: 3) { !peer.isRunning }
        #expect(try server.setBufferSize(1024) == 0)
        let followed = poll(timeout: 15) {
            !voicerack.isRunning || voicerack.output.contains("buffer size is now 1024 samples")
        }
        #expect(followed && voicerack.isRunning, "voicerack:\n\(voicerack.output)")

        let report = TestPeer.summary(try #require(TestPeer.finish(peer)))
        #expect(voicerack.isRunning, "voicerack died:\n\(voicerack.output)")
        #expect(report.contains("cycles of 256-1024 frames"), "the change did not happen during playback: \(report)")
        let changedAt = try #require(TestPeer.periodChangedAt(report), "\(report)")
        try #require(changedAt > 0, "the period never changed during playback: \(report)")

        // After the change (plus a second for the new engine to settle): the voice is not
        // silent, and where the near-end talker speaks, it comes through at about its level.
        let live = try AudioFileContents.read(outPath).channels[0]
        let after = min(changedAt + 48_000, scenario.mic.count - 48_000)..<scenario.mic.count
        let afterLevel = Measure.levelDB(live, after)
        #expect(afterLevel > -50, "voice after the change: \(afterLevel) dBFS")
        var nearReport = "near-end span before the change"
        if changedAt + 48_000 < EchoScenarioFiles.nearEndSpan.lowerBound {
            let lag = Alignment.lag(of: live, behind: scenario.near, over: EchoScenarioFiles.nearEndSpan, maxLag: 8192)
            let aligned = Alignment.shifted(live, by: lag, length: scenario.mic.count)
            let span = EchoScenarioFiles.nearEndSpan
            let gap = Measure.levelDB(aligned, span) - Measure.levelDB(scenario.near, span)
            nearReport = "near-end voice \(fmt(gap)) dB against the clean talker (offset \(lag))"
            #expect(abs(gap) < 10, "near-end voice after the change: \(gap) dB against the talker")
        }
        print(
            "live-path: buffer size 256 -> 1024 at frame \(changedAt): voice after it \(fmt(afterLevel)) dBFS; \(nearReport); \(report)"
        )

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
    }
}
