import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// A call through voicerack on a PipeWire desktop, with PulseAudio clients as the call app: the
/// far end played into the call node (`paplay`), the voice recorded from the microphone node
/// (`parecord`), music played to the default sink by another app, and the room around them
/// (`CallScenarioFiles`): the test peer hears the sound card's monitor and plays its echo, with a
/// near-end talker, into mic_in.
extension LiveClientTests {
    /// echo-cancel with the noise suppressor and the leveller off: what is left of the music is
    /// then what the echo canceller did to it (the suppressor would take steady music for noise,
    /// the leveller lift it).
    static let callPreset = """
        base = "echo-cancel"
        [preprocessor]
        noise_suppression = false
        [agc]
        enabled = false
        """

    /// `take`'s samples that match `reference[span]`: the lag is searched from a second below
    /// `hint` to 0.2 s above it (a take that lost blocks lags less later on). Zeros where the take
    /// has ended.
    static func segment(of take: [Float], matching reference: [Float], over span: Range<Int>, near hint: Int) -> [Float]
    {
        let low = max(0, hint - CallScenarioFiles.samples(1))
        let lag =
            low
            + Alignment.lag(
                of: Array(take.dropFirst(low)), behind: reference, over: span, maxLag: CallScenarioFiles.samples(1.2))
        return span.map { $0 + lag < take.count ? take[$0 + lag] : 0 }
    }

    /// How much louder `after` is than `before` (dB): the median over 100 ms windows (ERLE's
    /// measure, turned round), so that a block the capture stream lost moves the figure no more
    /// than its own window's.
    static func levelChange(_ before: [Float], _ after: [Float]) -> Double {
        -erle(mic: before, voice: after, over: 0..<min(before.count, after.count))
    }

    @Test(
        "a call: paplay's far end into voicerack-call, parecord from voicerack-mic: the far end's echo removed by 30 dB or more; music played to the default sink stays in the voice within 1 dB (remote-only)",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && TestPeer.executable != nil,
            "pipewire-pulse, pulseaudio-utils, wireplumber or voicerack-testpeer is missing"))
    func pipeWireCall() throws {
        let folder = try TemporaryFolder()
        let scenario = try CallScenarioFiles(in: folder)
        let preset = folder.file("call.toml")
        try Self.callPreset.write(toFile: preset, atomically: true, encoding: .utf8)
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, preset: preset, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        let missing = Self.awaitPipeWireLinks(on: server)
        try #require(
            missing.isEmpty,
            "missing \(missing):\n\(voicerack.output)\n\((try? server.lsp([])) ?? "")\(server.companionLogs)")
        // The room: hears what the sound card plays, waits for the far end there, then plays
        // its echo and the near end into mic_in; it records voice_out on the same timeline.
        let peerPath = folder.file("peer.wav")
        let monitor = "system-playback:monitor_FL"
        let peer = try server.launch(
            try #require(TestPeer.executable),
            [
                "--server", server.name, "--target", Self.pipeWireClient, "--room", scenario.roomPath, "--mic",
                scenario.micPath, "--out", peerPath, "--listen", "\(monitor),voice_out", "--tail", "0.5", "--timeout",
                "60",
            ])
        defer { peer.stop(SIGKILL) }
        try #require(poll(timeout: 10) { !peer.isRunning || peer.output.contains("connected") }, "\(peer.output)")
        let recordingPath = folder.file("voice.wav")
        let recorder = try server.launch(
            PipeWireServer.parecord!,
            [
                "-d", "voicerack-mic", "--latency-msec=100", "--file-format=wav", "--format=float32le", "--rate=48000",
                "--channels=1",
                recordingPath,
            ])
        defer { recorder.stop(SIGKILL) }
        // parecord's stream is linked by WirePlumber: wait until it shows as a JACK client's port.
        let recording = poll(timeout: 10) {
            (try? server.lsp(["-c", "voicerack microphone:capture_MONO"]))?.contains("   ") == true
        }
        #expect(recording, "parecord never linked:\n\(recorder.output)\n\((try? server.lsp(["-c"])) ?? "")")
        let far = try server.launch(PipeWireServer.paplay!, ["-d", "voicerack-call", scenario.farPath])
        let musicPlayer = try server.launch(PipeWireServer.paplay!, [scenario.musicPath])
        defer {
            far.stop(SIGKILL)
            musicPlayer.stop(SIGKILL)
        }
        let peerOutput = try #require(TestPeer.finish(peer, timeout: 60))
        // parecord writes what it has read; what PipeWire still buffers for it (its latency,
        // asked small above) is lost at SIGINT.
        Thread.sleep(forTimeInterval: 0.5)
        recorder.send(SIGINT)
        _ = recorder.waitForExit(timeout: 10)
        #expect(far.waitForExit(timeout: 10) == 0, "paplay (far end): \(far.output)")
        #expect(musicPlayer.waitForExit(timeout: 10) == 0, "paplay (music): \(musicPlayer.output)")
        let peerTake = try AudioFileContents.read(peerPath)
        let voice = try AudioFileContents.read(recordingPath).channels[0]
        let mic = scenario.mic(speakers: peerTake.channels[0])
        // The peer's voice_out is on the mic's timeline; parecord's take lags it by when it
        // started, and a capture stream that overran lost blocks since: each span is aligned by
        // itself, near the lag found at the near-end talker.
        let atPort = peerTake.channels[1]
        let lag = Alignment.lag(
            of: voice, behind: atPort, over: CallScenarioFiles.nearEndSpan, maxLag: CallScenarioFiles.samples(4))
        let farEndOnly = CallScenarioFiles.farEndOnly, musicOnly = CallScenarioFiles.musicOnly
        let whole = 0..<farEndOnly.count
        let removed = erle(
            mic: Array(mic[farEndOnly]), voice: Self.segment(of: voice, matching: atPort, over: farEndOnly, near: lag),
            over: whole)
        let removedAtPort = erle(mic: mic, voice: atPort, over: farEndOnly)
        let music = Self.segment(of: voice, matching: atPort, over: musicOnly, near: lag)
        let musicDifference = Self.levelChange(Array(mic[musicOnly]), music)
        let musicAtPort = Self.levelChange(Array(mic[musicOnly]), Array(atPort[musicOnly]))
        print(
            "pipewire call: echo removed \(fmt(removed)) dB in parecord's take (voice_out \(fmt(removedAtPort)) dB); music \(fmt(musicDifference)) dB against the mic (voice_out \(fmt(musicAtPort)) dB); parecord lags voice_out by \(lag) samples at the near end; \(TestPeer.summary(peerOutput))"
        )
        #expect(removed >= 30, "echo removed \(removed) dB\n\(voicerack.output)")
        #expect(abs(musicDifference) <= 1, "music \(musicDifference) dB")
        // The far end reached the speakers through voicerack, and the voice reached parecord.
        #expect(Measure.levelDB(peerTake.channels[0], CallScenarioFiles.farEndOnly) > -30)
        #expect(Measure.levelDB(peerTake.channels[0], musicOnly) > -30, "the music reached the sound card")
        #expect(
            Measure.levelDB(Self.segment(of: voice, matching: atPort, over: CallScenarioFiles.nearEndSpan, near: lag))
                > -40)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }
}
