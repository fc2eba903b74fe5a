import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// voicerack unchanged as a client of PipeWire's JACK (`pw-jack`), on a private headless PipeWire
/// (`PipeWireServer`): its ports and latency, a sine through it at the level jackd gives, forced
/// quantum changes mid-take, and the daemon killed under it.
///
/// In the serialized live suite, so only one server (jackd or PipeWire) runs at a time.
extension LiveClientTests {
    static let pipeWireClient = "vr-pw"
    /// RMS of jack_simple_client's 0.2-amplitude sine, in dBFS.
    static let sineDBFS = 20 * log10(0.2 / 2.0.squareRoot())

    /// Starts `voicerack run` on `graph` (no auto-connection unless `linking` says otherwise, with
    /// `environment` added) and waits until its startup line and its eight ports are there; returns the child and when it
    /// was up.
    func launchVoicerack(
        on graph: any JACKGraph, preset: String = "raw", linking: [String] = ["--no-auto-connect"],
        _ extra: [String] = [], environment: [String: String?] = [:]
    ) throws -> (child: ChildProcess, started: Date) {
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let client = Self.pipeWireClient
        let child = try graph.launch(
            binary, ["run", "--server", graph.name, "--name", client, "--preset", preset] + linking + extra,
            environment: environment)
        let up = poll(timeout: 20) {
            guard child.isRunning else { return true }
            guard child.output.contains("running as JACK client"), let ports = try? graph.lsp([]) else { return false }
            return (Self.inputs + Self.outputs).allSatisfy { ports.contains("\(client):\($0)") }
        }
        let started = Date()
        guard up, child.isRunning else {
            child.stop(SIGKILL)
            Issue.record("voicerack did not come up on \(graph.label) within 20 s; its output:\n\(child.output)")
            throw CancellationError()
        }
        return (child, started)
    }

    /// Starts jack_simple_client (0.2-amplitude sines) on `graph` and connects its first output to
    /// voicerack's mic_in.
    func feedSineToMic(on graph: any JACKGraph) throws -> ChildProcess {
        let sine = try graph.launch(Tools.jackSimpleClient!, ["sine", graph.name])
        let ready = poll(timeout: 10) {
            guard sine.isRunning, let ports = try? graph.lsp([]) else { return !sine.isRunning }
            return ports.contains("sine:output1")
        }
        try #require(ready && sine.isRunning, "jack_simple_client on \(graph.label):\n\(sine.output)")
        #expect(try graph.connect("sine:output1", "\(Self.pipeWireClient):mic_in") == 0)
        return sine
    }

    /// Records `port` with jack_capture on `graph` for about 1.2 s once it is connected; returns
    /// the take.
    func capture(_ port: String, on graph: any JACKGraph, to path: String) throws -> AudioFileContents {
        // jackd's jack_capture finds the server in $JACK_DEFAULT_SERVER, PipeWire's in
        // $PIPEWIRE_REMOTE (PipeWireServer sets it).
        let capture = try graph.launch(
            Tools.jackCapture!, ["-ns", "-as", "-c", "1", "-p", port, path],
            environment: ["JACK_DEFAULT_SERVER": graph.name])
        defer { capture.stop(SIGKILL) }
        let connected = poll(timeout: 15) {
            !capture.isRunning || (try? graph.lsp(["-c", port]))?.contains("jack_capture") == true
        }
        try #require(
            connected && capture.isRunning,
            "jack_capture did not connect to \(port) on \(graph.label):\n\(capture.output)")
        Thread.sleep(forTimeInterval: 1.2)
        capture.send(SIGINT)
        try #require(capture.waitForExit(timeout: 10) == 0, "jack_capture on \(graph.label): \(capture.output)")
        return try AudioFileContents.read(path)
    }

    /// The summary's frames the recorder lost and the frames the driver saw not run (0 when the
    /// summary does not mention them).
    static func lostAndNotRun(_ output: String) -> (lost: Int, notRun: Int)? {
        func number(before marker: String) -> Int? {
            guard let range = output.range(of: marker) else { return nil }
            return Int(output[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        guard let lostRange = output.range(of: "summary: recorded voice to"),
            let lost = output[lostRange.upperBound...].components(separatedBy: ", lost ").dropFirst().first
                .flatMap({ Int($0.prefix { $0.isNumber }) })
        else { return nil }
        return (lost, number(before: " frames not run") ?? 0)
    }

    /// The summary's frames not run at buffer-size changes (`...; 1472 of them at 4 buffer-size
    /// changes`; `all` means every frame not run), 0 when it names none.
    static func framesNotRunAtSizeChanges(_ output: String) -> Int {
        guard let r = output.range(of: " of them at ") else { return 0 }
        let word = output[..<r.lowerBound].split(separator: " ").last.map(String.init) ?? ""
        if word == "all" { return lostAndNotRun(output)?.notRun ?? 0 }
        return Int(word) ?? 0
    }

    @Test(
        "PipeWire's JACK: the eight ports with their directions, voice_out's latency, a clean stop",
        .enabled(if: PipeWireServer.available, "pipewire, pipewire-jack or the JACK tools are missing"))
    func pipeWirePortsAndLatency() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, preset: "echo-cancel")
        defer { voicerack.stop(SIGKILL) }
        let client = Self.pipeWireClient
        let properties = try server.lsp(["-p"])
        for name in Self.inputs + Self.outputs {
            let direction = Self.inputs.contains(name) ? "input" : "output"
            #expect(properties.contains("\(client):\(name)\n\tproperties: \(direction),"), "\(name): \(properties)")
        }
        // The engine's latency, stated at startup, is what voice_out reports (mic_in unconnected).
        let stated = try #require(Self.statedLatency(voicerack.output), "\(voicerack.output)")
        #expect(stated > 0)
        let reported = poll(timeout: 10) {
            (try? server.lsp(["-l", "\(client):voice_out"]))?.contains("capture latency = [ \(stated) \(stated) ]")
                == true
        }
        #expect(reported, "voice_out latency: \((try? server.lsp(["-l", "\(client):voice_out"])) ?? "")")
        #expect(try server.connect(PipeWireServer.capturePorts[0], "\(client):mic_in") == 0)
        #expect(try server.connect("\(client):speaker_out_L", PipeWireServer.playbackPorts[0]) == 0)
        #expect(try server.lsp(["-c", "\(client):mic_in"]).contains(PipeWireServer.capturePorts[0]))
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
        #expect(!(try server.lsp([])).contains(client + ":"), "the client left the graph")
    }

    @Test(
        "a sine through mic_in: voice_out and the voice tap on PipeWire's JACK within 0.5 dB of the same run on jackd",
        .enabled(
            if: PipeWireServer.available && Tools.jackSimpleClient != nil && Tools.jackCapture != nil,
            "pipewire, pipewire-jack, jack_simple_client or jack_capture is missing"))
    func pipeWireLevelsMatchJackd() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        /// voice_out (jack_capture) and the voice tap (voicerack's recorder), in dBFS.
        func levels(on graph: any JACKGraph) throws -> (port: Double, tap: Double) {
            let tapPath = "\(folder)/\(graph.label)-voice.wav"
            let (voicerack, _) = try launchVoicerack(on: graph, ["--record", tapPath])
            defer { voicerack.stop(SIGKILL) }
            let sine = try feedSineToMic(on: graph)
            defer { sine.stop(SIGTERM) }
            let port = try capture(
                "\(Self.pipeWireClient):voice_out", on: graph, to: "\(folder)/\(graph.label)-port.wav")
            voicerack.send(SIGINT)
            #expect(voicerack.waitForExit(timeout: 10) == 0, "\(graph.label): \(voicerack.output)")
            let tap = try AudioFileContents.read(tapPath)
            // The last second of each: the sine flows there (both started before it).
            let portDB = Measure.levelDB(port.channels[0], max(0, port.frames - 48_000)..<port.frames)
            let tapDB = Measure.levelDB(tap.channels[0], max(0, tap.frames - 48_000)..<tap.frames)
            return (portDB, tapDB)
        }
        let jackd = try JACKServer()
        let onJackd = try levels(on: jackd)
        jackd.stop()
        let pipeWire = try PipeWireServer()
        let onPipeWire = try levels(on: pipeWire)
        pipeWire.stop()
        print(
            "pipewire: voice_out \(fmt(onPipeWire.port)) dBFS (jackd \(fmt(onJackd.port))), voice tap \(fmt(onPipeWire.tap)) dBFS (jackd \(fmt(onJackd.tap))); sine \(fmt(Self.sineDBFS)) dBFS"
        )
        #expect(
            abs(onPipeWire.port - onJackd.port) < 0.5,
            "voice_out: PipeWire \(onPipeWire.port), jackd \(onJackd.port) dBFS")
        #expect(
            abs(onPipeWire.tap - onJackd.tap) < 0.5, "voice tap: PipeWire \(onPipeWire.tap), jackd \(onJackd.tap) dBFS")
        // And both are the sine (raw preset: voice = mic), not two equal silences.
        #expect(abs(onJackd.port - Self.sineDBFS) < 0.5 && abs(onJackd.tap - Self.sineDBFS) < 0.5, "jackd: \(onJackd)")
    }

    @Test(
        "PipeWire forces the quantum 64 → 256 → 1024 → 128 mid-take: each reaches voicerack, the take lasts the wall clock's time, the recorder loses nothing",
        .enabled(
            if: PipeWireServer.available && Tools.jackSimpleClient != nil,
            "pipewire, pipewire-jack or jack_simple_client is missing"))
    func pipeWireQuantumChanges() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let take = folder + "/voice.wav"
        let (voicerack, started) = try launchVoicerack(on: server, ["--record", take])
        defer { voicerack.stop(SIGKILL) }
        let sine = try feedSineToMic(on: server)
        defer { sine.stop(SIGTERM) }
        let quanta = [64, 256, 1024, 128]
        for quantum in quanta {
            let line = "buffer size is now \(quantum) samples"
            let seen = voicerack.output.components(separatedBy: line).count
            #expect(try server.forceQuantum(quantum) == 0)
            let followed = poll(timeout: 10) {
                !voicerack.isRunning || voicerack.output.components(separatedBy: line).count > seen
            }
            try #require(followed && voicerack.isRunning, "quantum \(quantum):\n\(voicerack.output)")
            // Record a while at this quantum (1024 samples are 21 ms: ~30 cycles).
            Thread.sleep(forTimeInterval: 0.7)
        }
        let elapsed = Date().timeIntervalSince(started)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
        let output = voicerack.output
        let (lost, notRun) = try #require(Self.lostAndNotRun(output), "\(output)")
        let voice = try AudioFileContents.read(take)
        print(
            "pipewire quanta \(quanta): take \(fmt(Self.seconds(voice))) s of \(fmt(elapsed)) s run, lost \(lost), not run (padded) \(notRun), of them at the quantum changes \(Self.framesNotRunAtSizeChanges(output)); \(output.split(separator: "\n").filter { $0.contains("summary: callback") })"
        )
        // The timeline is the wall clock's: no frame-time jump of a driver change padded in.
        #expect(
            abs(Self.seconds(voice) - elapsed) < 0.5,
            "the take holds \(Self.seconds(voice)) s, voicerack ran \(elapsed) s")
        // The recorder lost nothing it was given; what it padded are the cycles PipeWire's JACK
        // ran without calling voicerack: at least the first at each new quantum, at most 0.2 s.
        #expect(lost == notRun, "lost \(lost), not run \(notRun)")
        #expect(notRun <= 9_600, "\(notRun) frames not run")
        // Those at the changes are told apart: PipeWire's JACK runs no process callback in the
        // first cycle at a new quantum (before the client has the new size), so at least one
        // cycle of each new size (256 → 64 → 256 → 1024 → 128: 64 + 256 + 1024 + 128) is never
        // voicerack's.
        let atChanges = Self.framesNotRunAtSizeChanges(output)
        #expect(atChanges >= 1_472 && atChanges <= notRun, "\(atChanges) of \(notRun) at the changes:\n\(output)")
        #expect(output.contains("at 4 buffer-size changes"), "\(output)")
        // The sine is in the take up to its end (raw preset: voice = mic).
        let tail = Measure.levelDB(voice.channels[0], (voice.frames - 24_000)..<voice.frames)
        #expect(abs(tail - Self.sineDBFS) < 0.5, "the last 0.5 s: \(tail) dBFS")
    }

    @Test(
        "the PipeWire daemon killed under voicerack: it exits 69 with its takes finalised (PipeWire's JACK calls only jack_on_shutdown)",
        .enabled(
            if: PipeWireServer.available && Tools.jackSimpleClient != nil,
            "pipewire, pipewire-jack or jack_simple_client is missing"))
    func pipeWireDaemonKilled() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let voicePath = folder + "/voice.flac", micPath = folder + "/mic.wav"
        let (voicerack, started) = try launchVoicerack(
            on: server, ["--record", voicePath, "--record", "mic=\(micPath)"])
        defer { voicerack.stop(SIGKILL) }
        let sine = try feedSineToMic(on: server)
        defer { sine.stop(SIGKILL) }
        Thread.sleep(forTimeInterval: 1.5)
        let elapsed = Date().timeIntervalSince(started)
        server.kill()
        let status = voicerack.waitForExit(timeout: 15)
        let output = voicerack.output
        #expect(status == 69, "output:\n\(output)")
        // No reason: jack_on_info_shutdown was never called, the plain callback stopped it.
        #expect(output.contains("JACK server '\(server.name)' shut down; finalising"), "\(output)")
        #expect(output.contains("summary: recorded voice to \(voicePath)"), "\(output)")
        #expect(output.contains("summary: recorded mic to \(micPath)"), "\(output)")
        // Finalised: libsndfile knows the FLAC's length (an unfinalised FLAC has none).
        let voice = try AudioFileContents.read(voicePath)
        let mic = try AudioFileContents.read(micPath)
        print(
            "pipewire daemon killed: exit \(status.map(String.init) ?? "none"), voice \(fmt(Self.seconds(voice))) s, mic \(fmt(Self.seconds(mic))) s of \(fmt(elapsed)) s"
        )
        #expect(abs(Self.seconds(voice) - elapsed) < 0.5, "the FLAC holds \(Self.seconds(voice)) s of \(elapsed) s")
        #expect(mic.frames == voice.frames)
    }
}
