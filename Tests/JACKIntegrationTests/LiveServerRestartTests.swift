import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `--wait-for-server`: jackd killed and started again under a running voicerack, which comes
/// back with the same ports and connections and records on into a second take.
///
/// In the serialized live suite (one jackd at a time).
extension LiveClientTests {
    /// Starts a dummy-driver jackd (synchronous, `rate` Hz, `period` samples) under `name`, and waits
    /// until it serves.
    static func startJackd(named name: String, period: Int, rate: Int = 48_000) throws -> ChildProcess {
        let jackd = try ChildProcess(
            Tools.jackd!, ["-n", name, "-S", "-d", "dummy", "-r", "\(rate)", "-p", "\(period)"],
            environment: Tools.environment)
        let ready = poll(timeout: 10) { !jackd.isRunning || (try? runTool(Tools.jackLsp!, ["-s", name]).status) == 0 }
        try #require(ready && jackd.isRunning, "jackd '\(name)' did not come up:\n\(jackd.output)")
        return jackd
    }

    @Test(
        "--wait-for-server: jackd killed and restarted (at another period) under voicerack: same ports and connections, two valid takes",
        .enabled(if: Tools.jackSimpleClient != nil, "jack_simple_client is not installed"))
    func waitsForTheServerToComeBack() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let client = Self.recordingClient
        let (voicerack, started) = try launchRecordingClient(
            on: server, ["--wait-for-server", "--record", "voice.wav", "--record", "mic=mic.flac"], in: folder)
        defer { voicerack.stop(SIGKILL) }
        let connections = [
            ("system:capture_1", "\(client):mic_in"), ("system:capture_2", "\(client):far_in_L"),
            ("\(client):speaker_out_L", "system:playback_1"), ("\(client):voice_out", "system:playback_2"),
        ]
        for (source, destination) in connections { #expect(try server.connect(source, destination) == 0) }
        // A peer that dies with the server: its connection cannot come back, and voicerack says so.
        let sine = try feedSine(on: server)
        defer { sine.stop(SIGKILL) }
        Thread.sleep(forTimeInterval: 1.5)
        let firstTake = Date().timeIntervalSince(started)

        server.jackd.stop(SIGKILL)
        let waiting = poll(timeout: 15) {
            !voicerack.isRunning || voicerack.output.contains("waiting for it to come back")
        }
        #expect(waiting && voicerack.isRunning, "\(voicerack.output)")
        // Still waiting a second later, with no server: it neither exits nor starts one.
        Thread.sleep(forTimeInterval: 1)
        #expect(voicerack.isRunning, "\(voicerack.output)")

        // The same server name, another period: the engine must follow it.
        let restarted = try Self.startJackd(named: server.name, period: 512)
        defer { restarted.stop(SIGTERM) }
        let back = poll(timeout: 15) { !voicerack.isRunning || voicerack.output.contains("take 2 begins") }
        try #require(back && voicerack.isRunning, "\(voicerack.output)")
        let resumed = Date()
        // Polled: a jack_lsp run against the just restarted server failed now and then (no ports
        // listed at all, though voicerack registers them before it says take 2 begins).
        var ports: [String: String] = [:]
        let listed = poll(timeout: 10) {
            ports = (try? server.portProperties()) ?? [:]
            return (Self.inputs + Self.outputs).allSatisfy { ports["\(client):\($0)"] != nil }
        }
        #expect(listed, "ports after the restart: \(ports.keys.sorted())")
        for (source, destination) in connections {
            #expect(
                try server.lsp(["-c", source]).contains("   \(destination)"), "\(source) -> \(destination) not restored"
            )
        }
        #expect(voicerack.output.contains("4 of 6 connections restored"), "\(voicerack.output)")
        #expect(voicerack.output.contains("could not restore sine:output1 -> \(client):mic_in"), "\(voicerack.output)")
        Thread.sleep(forTimeInterval: 1.5)
        let secondTake = Date().timeIntervalSince(resumed)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let output = voicerack.output
        #expect(output.contains("buffer size is now 512 samples"), "\(output)")

        // Both takes finalised, in files whose names give their order, each as long as its run.
        let takes = [
            ("voice.wav", firstTake), ("mic.flac", firstTake), ("voice-take2.wav", secondTake),
            ("mic-take2.flac", secondTake),
        ]
        var lengths: [String] = []
        for (file, seconds) in takes {
            #expect(
                output.contains("summary: recorded \(file.hasPrefix("voice") ? "voice" : "mic") to \(file)"),
                "\(output)")
            let audio = try AudioFileContents.read("\(folder)/\(file)")
            lengths.append("\(file) \(fmt(Self.seconds(audio))) s of \(fmt(seconds)) s")
            // The first take ran until the kill was noticed; the second from the line to SIGINT.
            #expect(
                abs(Self.seconds(audio) - seconds) < 0.5, "\(file) holds \(Self.seconds(audio)) s, ran \(seconds) s")
        }
        print("wait-for-server: \(lengths.joined(separator: ", "))")
        // The first take has the sine it was fed (raw preset: the mic is the voice).
        let voice = try AudioFileContents.read("\(folder)/voice.wav")
        let level = Measure.levelDB(voice.channels[0], (voice.frames / 2)..<(voice.frames - 4_800))
        #expect(abs(level - Self.sineDBFS) < 0.5, "take 1: \(level) dBFS")
    }

    @Test(
        "--wait-for-server with no server yet (a user unit at login): voicerack says it waits, without libjack's noise, and joins the server once it starts"
    )
    func waitsForAServerNotYetStarted() throws {
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let name = "voicerack-late-\(getpid())"
        let voicerack = try ChildProcess(
            binary,
            [
                "run", "--server", name, "--name", Self.recordingClient, "--no-auto-connect", "--preset", "raw",
                "--wait-for-server",
            ], environment: Tools.environment)
        defer { voicerack.stop(SIGKILL) }
        let waiting = poll(timeout: 15) { !voicerack.isRunning || voicerack.output.contains("waiting for one") }
        #expect(waiting && voicerack.isRunning, "\(voicerack.output)")
        // Still there a while later: it neither exits 69 nor starts a server.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(voicerack.isRunning, "\(voicerack.output)")
        #expect(
            try runTool(Tools.jackLsp!, ["-s", name]).status != 0, "a server '\(name)' runs though none was started")

        let jackd = try Self.startJackd(named: name, period: 256)
        defer { jackd.stop(SIGTERM) }
        let joined = poll(timeout: 15) { !voicerack.isRunning || voicerack.output.contains("running as JACK client") }
        try #require(joined && voicerack.isRunning, "\(voicerack.output)")
        var listed = ""
        let ports = poll(timeout: 10) {
            listed = (try? runTool(Tools.jackLsp!, ["-s", name]).output) ?? ""
            return (Self.inputs + Self.outputs).allSatisfy { listed.contains("\(Self.recordingClient):\($0)") }
        }
        #expect(ports, "ports once the server runs: \(listed)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        #expect(voicerack.output.contains("JACK server '\(name)' is up after"), "\(voicerack.output)")
        #expect(
            !voicerack.output.contains("Cannot connect to server"), "libjack's messages leaked: \(voicerack.output)")
    }

    @Test("--wait-for-server: a server back at another sample rate ends voicerack with 69, the first take intact")
    func serverBackAtAnotherRate() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (voicerack, _) = try launchRecordingClient(
            on: server, ["--wait-for-server", "--record", "voice.flac"], in: folder)
        defer { voicerack.stop(SIGKILL) }
        Thread.sleep(forTimeInterval: 1)
        server.jackd.stop(SIGKILL)
        let waiting = poll(timeout: 15) {
            !voicerack.isRunning || voicerack.output.contains("waiting for it to come back")
        }
        #expect(waiting && voicerack.isRunning, "\(voicerack.output)")
        let restarted = try Self.startJackd(named: server.name, period: 256, rate: 44_100)
        defer { restarted.stop(SIGTERM) }
        #expect(voicerack.waitForExit(timeout: 15) == 69, "\(voicerack.output)")
        #expect(voicerack.output.contains("came back at 44100 Hz"), "\(voicerack.output)")
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/voice-take2.flac"))
        let voice = try AudioFileContents.read("\(folder)/voice.flac")
        #expect(Self.seconds(voice) > 0.5 && Self.seconds(voice) < 3, "take 1 holds \(Self.seconds(voice)) s")
    }
}

extension LiveClientTests {
    @Test(
        "--wait-for-server on PipeWire's JACK: the daemon killed and started again; same ports and connections, two valid takes",
        .enabled(if: PipeWireServer.available, "pipewire or pipewire-jack is missing"))
    func waitsForPipeWireToComeBack() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let client = Self.pipeWireClient
        let (voicerack, started) = try launchVoicerack(
            on: server, ["--wait-for-server", "--record", "\(folder)/voice.flac"])
        defer { voicerack.stop(SIGKILL) }
        let connections = [
            (PipeWireServer.capturePorts[0], "\(client):mic_in"),
            ("\(client):voice_out", PipeWireServer.playbackPorts[0]),
        ]
        for (source, destination) in connections { #expect(try server.connect(source, destination) == 0) }
        Thread.sleep(forTimeInterval: 1.5)
        let firstTake = Date().timeIntervalSince(started)
        server.kill()
        let waiting = poll(timeout: 15) {
            !voicerack.isRunning || voicerack.output.contains("waiting for it to come back")
        }
        #expect(waiting && voicerack.isRunning, "\(voicerack.output)")
        try server.restart()
        let back = poll(timeout: 15) { !voicerack.isRunning || voicerack.output.contains("take 2 begins") }
        try #require(back && voicerack.isRunning, "\(voicerack.output)")
        let resumed = Date()
        #expect(voicerack.output.contains("2 of 2 connections restored"), "\(voicerack.output)")
        for (source, destination) in connections {
            #expect(
                try server.lsp(["-c", source]).contains("   \(destination)"), "\(source) -> \(destination) not restored"
            )
        }
        Thread.sleep(forTimeInterval: 1.5)
        let secondTake = Date().timeIntervalSince(resumed)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let first = try AudioFileContents.read("\(folder)/voice.flac")
        let second = try AudioFileContents.read("\(folder)/voice-take2.flac")
        print(
            "wait-for-server on PipeWire: voice.flac \(fmt(Self.seconds(first))) s of \(fmt(firstTake)) s, voice-take2.flac \(fmt(Self.seconds(second))) s of \(fmt(secondTake)) s"
        )
        #expect(abs(Self.seconds(first) - firstTake) < 0.5, "take 1 holds \(Self.seconds(first)) s of \(firstTake) s")
        #expect(
            abs(Self.seconds(second) - secondTake) < 0.5, "take 2 holds \(Self.seconds(second)) s of \(secondTake) s")
    }
}
