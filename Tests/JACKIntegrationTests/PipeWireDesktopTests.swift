import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// voicerack on a PipeWire desktop (`PipeWireServer` with `desktop`): the nodes of the shipped
/// config fragment as PulseAudio clients and WirePlumber see them, and `--pipewire` linking
/// voicerack between them and the devices.
///
/// In the serialized live suite, so only one server runs at a time.
extension LiveClientTests {
    /// JACK names of the fragment's nodes (their descriptions) and of the devices' ports.
    static let micNodeInput = "voicerack microphone:input_MONO"
    static let callMonitors = ["voicerack call audio:monitor_FL", "voicerack call audio:monitor_FR"]

    /// The full names of the ports connected to `port` on `server` (`jack_lsp -c`), jackd or PipeWire.
    static func peers(of port: String, on server: any JACKGraph) -> [String] {
        let listing = (try? server.lsp(["-c", port])) ?? ""
        return listing.split(separator: "\n").filter { $0.hasPrefix("   ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The links `--pipewire` makes, as (source, destination).
    static var pipeWireLinks: [(String, String)] {
        let client = pipeWireClient
        return [
            ("\(client):voice_out", micNodeInput),
            (callMonitors[0], "\(client):far_in_L"), (callMonitors[1], "\(client):far_in_R"),
            ("\(client):speaker_out_L", PipeWireServer.playbackPorts[0]),
            ("\(client):speaker_out_R", PipeWireServer.playbackPorts[1]),
            (PipeWireServer.capturePorts[0], "\(client):mic_in"),
        ]
    }

    /// Waits (up to `timeout` s) until every `--pipewire` link is there on `server`; the missing ones.
    static func awaitPipeWireLinks(on server: PipeWireServer, timeout: Double = 10) -> [String] {
        var missing: [String] = []
        _ = poll(timeout: timeout) {
            missing = pipeWireLinks.filter { !peers(of: $0.0, on: server).contains($0.1) }.map { "\($0.0) -> \($0.1)" }
            return missing.isEmpty
        }
        return missing
    }

    /// Waits (up to 10 s) until voicerack's nodes are the default sink and source
    /// (`--make-default`); whether they became so, and the defaults last seen.
    static func awaitNodesDefault(on server: PipeWireServer) -> (made: Bool, defaults: (String, String)) {
        var defaults = ("", "")
        let made = poll(timeout: 10) {
            defaults = (try? Self.defaults(on: server)) ?? ("", "")
            return defaults == ("voicerack-call", "voicerack-mic")
        }
        return (made, defaults)
    }

    /// The default sink and source as pipewire-pulse reports them.
    static func defaults(on server: PipeWireServer) throws -> (sink: String, source: String) {
        let info = try server.pactl(["info"])
        func value(_ key: String) -> String {
            info.split(separator: "\n").first { $0.hasPrefix(key) }.map {
                String($0.dropFirst(key.count)).trimmingCharacters(in: .whitespaces)
            } ?? ""
        }
        return (value("Default Sink:"), value("Default Source:"))
    }

    @Test(
        "the shipped pipewire.conf.d fragment: pactl lists voicerack-mic and voicerack-call by name, with and without WirePlumber; wpctl shows them, and neither becomes a default",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireNodesFromConfig() throws {
        for sessionManager in [false, true] {
            let server = try PipeWireServer(desktop: .init(sessionManager: sessionManager))
            defer { server.stop() }
            let sinks = try server.pactl(["list", "short", "sinks"])
            let sources = try server.pactl(["list", "short", "sources"])
            #expect(sinks.contains("\tvoicerack-call\t"), "sinks:\n\(sinks)")
            #expect(sources.contains("\tvoicerack-mic\t"), "sources:\n\(sources)")
            // The call node's monitor is a source too, as every sink's; the mic is no sink.
            #expect(!sinks.contains("voicerack-mic"), "sinks:\n\(sinks)")
            let long = try server.pactl(["list", "sources"])
            #expect(long.contains("Description: voicerack microphone"), "\(long)")
            guard sessionManager else { continue }
            let status = try server.wpctl(["status"])
            #expect(status.contains("voicerack call audio") && status.contains("voicerack microphone"), "\(status)")
            let (sink, source) = try Self.defaults(on: server)
            #expect(sink == "system-playback" && source == "system-capture", "defaults \(sink), \(source):\n\(status)")
            // Under pw-jack the descriptions are JACK client names: no colon splits them.
            let ports = try server.lsp([])
            #expect(ports.contains(Self.micNodeInput) && ports.contains(Self.callMonitors[1]), "\(ports)")
        }
    }

    @Test(
        "--pipewire links voice_out, far_in, speaker_out and mic_in to the nodes and devices; the defaults stay; with the call node made the default sink, speaker_out still goes to the device",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireLinking() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let before = try Self.defaults(on: server)
        #expect(before == ("system-playback", "system-capture"), "defaults before voicerack: \(before)")
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        let missing = Self.awaitPipeWireLinks(on: server)
        #expect(
            missing.isEmpty,
            "missing \(missing):\n\(voicerack.output)\n\((try? server.lsp([])) ?? "")\(server.companionLogs)")
        // Two looks at the graph later, the defaults are still the devices.
        Thread.sleep(forTimeInterval: 4.5)
        let after = try Self.defaults(on: server)
        #expect(after == before, "defaults before \(before), with voicerack \(after)")
        // No loop: the call node as the default sink changes nothing of speaker_out.
        _ = try server.pactl(["set-default-sink", "voicerack-call"])
        let callIsDefault = poll(timeout: 5) { (try? Self.defaults(on: server).sink) == "voicerack-call" }
        #expect(callIsDefault)
        Thread.sleep(forTimeInterval: 4.5)
        for side in ["L", "R"] {
            let peers = Self.peers(of: "\(Self.pipeWireClient):speaker_out_\(side)", on: server)
            #expect(
                peers.count == 1 && peers.allSatisfy { $0.hasPrefix("system-playback:") },
                "speaker_out_\(side): \(peers)")
        }
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }
}

extension LiveClientTests {
    @Test(
        "PipeWire killed and started again mid-call: the nodes come back, voicerack rejoins and relinks, and a new parecord records the processed voice within 5 s; after voicerack stops the nodes stay",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && Tools.jackSimpleClient != nil,
            "pipewire-pulse, pulseaudio-utils, wireplumber or jack_simple_client is missing"))
    func pipeWireRestartRelinks() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"], ["--wait-for-server"])
        defer { voicerack.stop(SIGKILL) }
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        server.kill()
        let waiting = poll(timeout: 15) {
            !voicerack.isRunning || voicerack.output.contains("waiting for it to come back")
        }
        try #require(waiting && voicerack.isRunning, "\(voicerack.output)")
        try server.restart()
        let back = Date()
        let sources = try server.pactl(["list", "short", "sources"])
        #expect(sources.contains("\tvoicerack-mic\t"), "\(sources)")
        // A talker at the mic (raw preset: the voice is the mic) and a call app recording.
        let sine = try feedSineToMic(on: server)
        defer { sine.stop(SIGTERM) }
        let take = folder.file("after-restart.wav")
        let recorder = try server.launch(
            PipeWireServer.parecord!,
            ["-d", "voicerack-mic", "--file-format=wav", "--format=float32le", "--rate=48000", "--channels=1", take])
        defer { recorder.stop(SIGKILL) }
        let missing = Self.awaitPipeWireLinks(on: server, timeout: 5 - Date().timeIntervalSince(back))
        #expect(missing.isEmpty, "not relinked within 5 s: \(missing)\n\(voicerack.output)")
        Thread.sleep(forTimeInterval: max(0, 5 - Date().timeIntervalSince(back)))
        recorder.send(SIGINT)
        #expect(recorder.waitForExit(timeout: 10) == 0, "parecord: \(recorder.output)")
        let voice = try AudioFileContents.read(take).channels[0]
        let tail = Measure.levelDB(voice, max(0, voice.count - 9_600)..<voice.count)
        print(
            "pipewire restart: relinked, parecord's last 0.2 s at \(fmt(tail)) dBFS 5 s after PipeWire was back (sine \(fmt(Self.sineDBFS)))"
        )
        #expect(abs(tail - Self.sineDBFS) < 1, "the last 0.2 s of parecord's take: \(tail) dBFS")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let after = try server.pactl(["list", "short", "sinks"])
        #expect(after.contains("\tvoicerack-call\t"), "the nodes went with voicerack:\n\(after)")
    }

    @Test(
        "--make-default makes the call node the default sink and the microphone node the default source",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireMakeDefault() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire", "--make-default"])
        defer { voicerack.stop(SIGKILL) }
        let (made, defaults) = Self.awaitNodesDefault(on: server)
        #expect(
            made, "defaults \(defaults):\n\(voicerack.output)\n\((try? server.lsp([])) ?? "")\(server.companionLogs)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    @Test(
        "--make-default acts again after PipeWire restarted: the nodes, back under their old ids, become the defaults again though WirePlumber forgot them",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireMakeDefaultAfterRestart() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(
            on: server, linking: ["--pipewire", "--make-default"], ["--wait-for-server"])
        defer { voicerack.stop(SIGKILL) }
        let (made, defaults) = Self.awaitNodesDefault(on: server)
        try #require(made, "defaults \(defaults):\n\(voicerack.output)")
        server.kill()
        // WirePlumber remembers the user's defaults in its state folder: without it, only
        // voicerack can make its nodes the defaults again.
        try? FileManager.default.removeItem(atPath: "\(server.runtimeDirectory)/state")
        try server.restart()
        let back = Date()
        let (madeAgain, after) = Self.awaitNodesDefault(on: server)
        print("--make-default after a PipeWire restart: defaults again after \(fmt(Date().timeIntervalSince(back))) s")
        #expect(madeAgain, "defaults after the restart \(after):\n\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
    }
}

extension LiveClientTests {
    /// Records the microphone node with parecord for `seconds` once its stream is linked; the
    /// level of the take's last 0.2 s (dBFS).
    func micNodeLevel(on server: PipeWireServer, into path: String, seconds: Double = 1) throws -> Double {
        let recorder = try server.launch(
            PipeWireServer.parecord!,
            [
                "-d", "voicerack-mic", "--latency-msec=100", "--file-format=wav", "--format=float32le", "--rate=48000",
                "--channels=1", path,
            ])
        defer { recorder.stop(SIGKILL) }
        let linked = poll(timeout: 10) {
            (try? server.lsp(["-c", "voicerack microphone:capture_MONO"]))?.contains("   ") == true
        }
        #expect(linked, "parecord's stream was never linked: \(recorder.output)")
        Thread.sleep(forTimeInterval: seconds)
        recorder.send(SIGINT)
        #expect(recorder.waitForExit(timeout: 10) == 0, "parecord: \(recorder.output)")
        let voice = try AudioFileContents.read(path).channels[0]
        return Measure.levelDB(voice, max(0, voice.count - 9_600)..<voice.count)
    }

    @Test(
        "the microphone node's volume slider acts on what apps record (monitor.channel-volumes): 50% in pactl is 18 dB down",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && Tools.jackSimpleClient != nil,
            "pipewire-pulse, pulseaudio-utils, wireplumber or jack_simple_client is missing"))
    func pipeWireSourceVolume() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let sine = try feedSineToMic(on: server)
        defer { sine.stop(SIGTERM) }
        let full = try micNodeLevel(on: server, into: folder.file("full.wav"))
        _ = try server.pactl(["set-source-volume", "voicerack-mic", "50%"])
        let half = try micNodeLevel(on: server, into: folder.file("half.wav"))
        // PulseAudio's volume scale is cubic: 50% is 0.125, -18.06 dB.
        print("pipewire source volume: 100% \(fmt(full)) dBFS, 50% \(fmt(half)) dBFS")
        #expect(abs(full - Self.sineDBFS) < 1, "at 100%: \(full) dBFS")
        #expect(abs(half - full + 18.06) < 1, "at 50%: \(half) dBFS against \(full)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }
}
