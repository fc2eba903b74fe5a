import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run --record-on-freewheel`: a whole session rendered faster than real time.
///
/// voicerack-testpeer makes the server freewheel for exactly the frames it plays (a 60 s echo
/// scenario: speech on the mic, speech on the far end) while voicerack, with a backing track,
/// records the mic it saw, the reference it sent to the speakers and the voice, only while
/// freewheeling. Then:
/// * each file holds exactly the frames the server ran freewheeling (the peer counts them), with
///   none lost or padded, and the mic file is the played scenario sample for sample;
/// * `voicerack process` of that mic and reference gives the live voice sample for sample: the
///   freewheel render starts from a fresh engine and nothing was dropped or waited out;
/// * the freewheel cycles were not timed (the statistics paused) and the backing track never
///   underran although it was read far faster than real time.
extension LiveClientTests {
    @Test(
        "a 60 s take rendered in freewheel holds exactly the played frames and equals voicerack process of the same input",
        .enabled(if: TestPeer.executable != nil, "voicerack-testpeer was not built; skipping"))
    func freewheelRenderEqualsOffline() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = 48_000, seconds = 60
        let near = Signals.speechLike(count: rate * seconds, sampleRate: rate, rms: 0.05, seed: 161)
        let far = Signals.speechLike(count: rate * seconds, sampleRate: rate, rms: 0.1, seed: 162)
        let micFile = try TestFiles.wav(folder + "/near.wav", [near], rate: rate)
        let farFile = try TestFiles.wav(folder + "/far.wav", [far], rate: rate)
        let song = Signals.speechLike(count: rate * 20, sampleRate: rate, rms: 0.05, seed: 163)
        let track = try TestFiles.wav(folder + "/song.wav", [song, song.map { -$0 }], rate: rate)
        // Offline takes --ref as what the speakers played, so it never ducks: neither may live.
        let preset = folder + "/freewheel.toml"
        try "base = \"echo-cancel\"\n\n[ducking]\nenabled = false\n\n[backing]\nloop = true\n".write(
            toFile: preset, atomically: true, encoding: .utf8)

        let server = try JACKServer()
        defer { server.stop() }
        let taps = ["mic", "reference", "voice"]
        let (voicerack, _) = try launchRecordingClient(
            on: server, preset: preset,
            ["--record-on-freewheel", "--backing", track, "--format", "wav:float"]
                + taps.flatMap { ["--record", "\($0)=\(folder)/live-\($0).wav"] })
        defer { voicerack.stop(SIGKILL) }
        let peer = try TestPeer.start(
            server: server, target: Self.recordingClient, mic: micFile, ref: farFile, out: folder + "/peer.wav",
            extra: ["--freewheel"])
        let report = try #require(TestPeer.finish(peer, timeout: 300))
        let freewheelFrames = try #require(TestPeer.freewheelFrames(report), "no freewheel count in:\n\(report)")
        // The take is finalised once voicerack sees the freewheel end; then it arms take 2.
        #expect(poll(timeout: 30) { voicerack.output.contains("take 2 armed") }, "\(voicerack.output)")
        voicerack.send(SIGINT)
        try #require(voicerack.waitForExit(timeout: 30) == 0, "voicerack:\n\(voicerack.output)")
        let output = voicerack.output
        print(TestPeer.summary(report))
        let latency = try #require(Self.voiceLatency(output), "no latency in:\n\(output)")

        // Exactly the freewheel frames, none lost or padded; the unused take 2 left no files.
        for tap in taps {
            #expect(
                output.contains("take 1: recorded \(tap) to \(folder)/live-\(tap).wav"),
                "\(tap): no take-1 line in:\n\(output)")
            #expect(
                output.contains(
                    "live-\(tap).wav (wav:float, \(tap == "reference" ? 2 : 1) ch): \(freewheelFrames) frames")
                    && output.contains("lost 0, padded 0"), "\(tap): not \(freewheelFrames) frames, 0 lost:\n\(output)")
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/live-\(tap)-take2.wav"))
        }
        #expect(output.contains("after \(freewheelFrames / 256) freewheel cycles"), "\(output)")
        #expect(output.contains("0 frames underrun"), "the backing track underran:\n\(output)")
        #expect(!output.contains("gave up waiting"), "\(output)")
        // Entering and leaving freewheel is no gap in the timeline (the frame time races ahead).
        #expect(!output.contains("frames not run"), "\(output)")

        func read(_ name: String) throws -> [[Float]] { try AudioFileContents.read("\(folder)/\(name).wav").channels }
        let liveMic = try read("live-mic")[0]
        #expect(liveMic.count == freewheelFrames)
        let heard = Difference(Array(liveMic.prefix(near.count)), near)
        #expect(heard.isNone, "mic_in got the scenario: \(heard)")

        let binary = try #require(Tools.voicerack)
        let offline = try runTool(
            binary,
            [
                "process", "--preset", preset, "--mic", "\(folder)/live-mic.wav", "--ref",
                "\(folder)/live-reference.wav", "--block", "256", "--out", "\(folder)/off-voice.wav", "-q",
            ],
            timeout: 300)
        try #require(offline.status == 0, "voicerack process:\n\(offline.output)")
        let live = try read("live-voice")[0], off = try read("off-voice")[0]
        #expect(off.count == liveMic.count, "offline files have the mic's length")
        let compared = min(off.count, live.count - latency)
        let replay = Difference(Array(live[latency..<(latency + compared)]), Array(off.prefix(compared)))
        print(
            "freewheel take: \(liveMic.count) frames (\(freewheelFrames) run freewheeling), voice vs offline at a lag of \(latency): \(replay); RMS \(Measure.rms(off))"
        )
        #expect(compared == freewheelFrames - latency)
        #expect(Measure.rms(off) > 0.005, "the voice is not silent")
        #expect(replay.isNone, "voice vs offline: \(replay)")
    }
}
