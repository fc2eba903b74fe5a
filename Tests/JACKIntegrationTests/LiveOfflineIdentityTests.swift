import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Live and offline run the one render cycle: the same inputs, block size and preset give
/// sample-identical voice, monitor and karaoke taps.
///
/// Live: `voicerack run` with a backing track records what its mic_in saw (the mic tap) and the
/// voice, monitor and karaoke taps, from its first cycle on, while voicerack-testpeer plays
/// speech into mic_in. Offline: `voicerack process` on that mic tap with the same track. Offline
/// files are aligned with the mic, so the voice and karaoke taps are compared `latency` samples
/// later in the live files; the dry monitor adds no latency. The second case runs podcast-lv2,
/// whose chain has two LV2 plugins (LSP's compressor, x42's dpl): live with worker threads,
/// offline with synchronous workers, and dpl's 64 samples in the latency.
extension LiveClientTests {
    @Test(
        "offline and live give sample-identical voice, monitor and karaoke taps for the same inputs, block size and preset",
        .enabled(if: TestPeer.executable != nil, "voicerack-testpeer was not built; skipping"),
        arguments: ["karaoke", "podcast-lv2"])
    func liveAndOfflineAreSampleIdentical(base: String) throws {
        let karaoke = base == "karaoke"
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = 48_000
        let song = Signals.speechLike(count: rate * 30, sampleRate: rate, rms: 0.1, seed: 71)
        let track = try TestFiles.wav(folder + "/song.wav", [song, song.map { -0.5 * $0 }], rate: rate)
        let near = Signals.speechLike(count: rate * 4, sampleRate: rate, rms: 0.05, seed: 72)
        let micFile = try TestFiles.wav(folder + "/near.wav", [near], rate: rate)
        let silentFar = try TestFiles.wav(folder + "/far.wav", [[Float](repeating: 0, count: rate * 4)], rate: rate)
        // karaoke (echo canceller, preprocessor, compressor, reverb, limiter, dry monitor), without
        // ducking: offline takes --ref as what the speakers played, so it never ducks.
        let preset = folder + "/identity.toml"
        try "base = \"\(base)\"\n\n[ducking]\nenabled = false\n".write(
            toFile: preset, atomically: true, encoding: .utf8)

        let server = try JACKServer()
        defer { server.stop() }
        let taps = karaoke ? ["mic", "voice", "monitor", "karaoke"] : ["mic", "voice"]
        let backing = karaoke ? ["--backing", track] : []
        let (voicerack, _) = try launchRecordingClient(
            on: server, preset: preset,
            backing + ["--format", "wav:float"] + taps.flatMap { ["--record", "\($0)=\(folder)/live-\($0).wav"] })
        defer { voicerack.stop(SIGKILL) }
        let peer = try TestPeer.start(
            server: server, target: Self.recordingClient, mic: micFile, ref: silentFar, out: folder + "/peer.wav")
        try #require(TestPeer.finish(peer) != nil)
        voicerack.send(SIGINT)
        try #require(voicerack.waitForExit(timeout: 20) == 0, "voicerack:\n\(voicerack.output)")
        let latency = try #require(Self.voiceLatency(voicerack.output), "no latency in:\n\(voicerack.output)")
        #expect(!voicerack.output.contains("frames not run"), "a gap in the live timeline:\n\(voicerack.output)")

        let binary = try #require(Tools.voicerack)
        let offline = try runTool(
            binary,
            ["process", "--preset", preset, "--mic", "\(folder)/live-mic.wav", "--block", "256"] + backing
                + ["--out", "\(folder)/off-voice.wav", "-q"]
                + (karaoke
                    ? [
                        "--record", "monitor=\(folder)/off-monitor.wav", "--record",
                        "karaoke=\(folder)/off-karaoke.wav",
                    ]
                    : []),
            timeout: 120)
        try #require(offline.status == 0, "voicerack process:\n\(offline.output)")

        func read(_ name: String) throws -> [[Float]] { try AudioFileContents.read("\(folder)/\(name).wav").channels }
        let liveMic = try read("live-mic")[0]
        #expect(Measure.rms(liveMic) > 0.01, "the peer's speech reached mic_in")
        if !karaoke { #expect(latency == 256 + 64, "podcast-lv2 at period 256: preprocessor frame 256 + dpl 64") }
        for (tap, lag) in [("voice", latency), ("monitor", 0), ("karaoke", latency)] where taps.contains(tap) {
            let live = try read("live-\(tap)"), off = try read("off-\(tap)")
            try #require(live.count == off.count, "\(tap): channel counts")
            #expect(off[0].count == liveMic.count, "\(tap): offline files have the mic's length")
            let compared = min(off[0].count, live[0].count - lag)
            let channels = (0..<live.count).map { c in
                Difference(Array(live[c][lag..<(lag + compared)]), Array(off[c].prefix(compared)))
            }
            print(
                "live vs offline \(base) \(tap) at a lag of \(lag), \(live.count) ch: \(channels.map(\.description).joined(separator: "; ")); RMS \(Measure.rms(off[0]))"
            )
            #expect(compared > rate * 3)
            #expect(Measure.rms(off[0]) > 0.005, "\(tap) is not silent")
            #expect(channels.allSatisfy { $0.isNone }, "\(tap): \(channels)")
        }
    }

    /// The voice latency `voicerack run` reports in its startup line.
    static func voiceLatency(_ output: String) -> Int? {
        guard let range = output.range(of: "voice latency ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }
}
