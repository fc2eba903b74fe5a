import Foundation
import Testing

/// `voicerack run` against a real jackd (dummy driver), checked with real peers (jack_lsp,
/// jack_connect). Serialized: each test starts its own server, and two cores are enough for one.
@Suite(
    "voicerack run against jackd", .serialized, RedoOnJACKWedge(),
    .enabled(
        if: Tools.jackAvailable,
        "jackd, jack_lsp or jack_connect is not installed (apt install jackd2); skipping the JACK integration tests"))
struct LiveClientTests {
    static let client = "vr-it"
    static let inputs = ["mic_in", "far_in_L", "far_in_R"]
    static let outputs = ["voice_out", "speaker_out_L", "speaker_out_R", "monitor_out_L", "monitor_out_R"]

    /// Starts `voicerack run` on `server` without auto-connection and waits until its eight ports
    /// exist.
    func startVoicerack(on server: JACKServer, extra: [String] = []) throws -> ChildProcess {
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let child = try ChildProcess(
            binary,
            ["run", "--server", server.name, "--name", Self.client, "--no-auto-connect", "--preset", "echo-cancel"]
                + extra,
            environment: Tools.environment)
        let up = poll(timeout: 10) {
            guard child.isRunning else { return true }
            guard let ports = try? server.portProperties() else { return false }
            return ports.keys.filter { $0.hasPrefix(Self.client + ":") }.count == 8
                && child.output.contains("running as JACK client")
        }
        guard up, child.isRunning else {
            child.stop(SIGKILL)
            Issue.record("voicerack did not come up within 10 s; its output:\n\(child.output)")
            throw CancellationError()
        }
        return child
    }

    @Test("registers the eight ports with their directions, reports its latency, stops cleanly on SIGINT")
    func portsAndCleanStop() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }

        let ports = try server.portProperties()
        for name in Self.inputs {
            #expect(ports["\(Self.client):\(name)"]?.hasPrefix("input") == true, "\(name): \(ports)")
        }
        for name in Self.outputs {
            #expect(ports["\(Self.client):\(name)"]?.hasPrefix("output") == true, "\(name): \(ports)")
        }
        #expect(ports.keys.filter { $0.hasPrefix(Self.client + ":") }.count == 8)
        // --no-auto-connect: nothing is connected.
        #expect(!(try server.lsp(["-c", Self.client])).contains("system:"))

        // voice_out's capture latency is mic_in's (0: unconnected) plus the engine's latency,
        // which the startup line states.
        let stated = try #require(Self.statedLatency(voicerack.output), "\(voicerack.output)")
        #expect(stated > 0)
        let reported = poll(timeout: 10) {
            (try? server.lsp(["-l", "\(Self.client):voice_out"]))?.contains("capture latency = [ \(stated) \(stated) ]")
                == true
        }
        #expect(reported, "voice_out latency: \((try? server.lsp(["-l", "\(Self.client):voice_out"])) ?? "")")

        #expect(try server.connect("system:capture_1", "\(Self.client):mic_in") == 0)
        #expect(try server.connect("system:capture_1", "\(Self.client):far_in_L") == 0)
        #expect(try server.connect("system:capture_2", "\(Self.client):far_in_R") == 0)
        #expect(try server.connect("\(Self.client):voice_out", "system:playback_1") == 0)
        #expect(try server.connect("\(Self.client):speaker_out_L", "system:playback_2") == 0)
        let connections = try server.lsp(["-c", "\(Self.client):mic_in"])
        #expect(connections.contains("system:capture_1"), "\(connections)")
        #expect(voicerack.isRunning)

        voicerack.send(SIGINT)
        let status = voicerack.waitForExit(timeout: 10)
        #expect(status == 0, "output:\n\(voicerack.output)")
        #expect(voicerack.output.contains("stopping on SIGINT"))
        // The client left the graph.
        #expect(!(try server.lsp([])).contains(Self.client + ":"))
    }

    @Test("SIGTERM also stops cleanly")
    func sigtermStops() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }
        voicerack.send(SIGTERM)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
    }

    @Test("exits 69 naming the server when no server runs")
    func serverAbsent() throws {
        let binary = try #require(Tools.voicerack)
        let name = "voicerack-test-absent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let (status, output) = try runTool(binary, ["run", "--server", name, "--no-auto-connect"], timeout: 20)
        #expect(status == 69, "output:\n\(output)")
        #expect(output.contains("'\(name)'"), "output:\n\(output)")
        #expect(output.contains("not running"), "output:\n\(output)")
    }

    @Test("exits 69 with a message when the server shuts down while it runs")
    func serverShutdown() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }
        server.stop()
        let status = voicerack.waitForExit(timeout: 10)
        #expect(status == 69, "output:\n\(voicerack.output)")
        #expect(voicerack.output.contains("shut down while voicerack was running"), "output:\n\(voicerack.output)")
    }

    @Test(
        "follows buffer-size changes: keeps running, reports the new latency",
        .enabled(if: Tools.jackBufsize != nil, "jack_bufsize is not installed"))
    func bufferSizeChanges() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }
        #expect(try server.connect("system:capture_1", "\(Self.client):mic_in") == 0)
        #expect(try server.connect("system:capture_2", "\(Self.client):far_in_L") == 0)
        for frames in [512, 128, 256] {
            #expect(try server.setBufferSize(frames) == 0)
            let followed = poll(timeout: 10) {
                !voicerack.isRunning || voicerack.output.contains("buffer size is now \(frames) samples")
            }
            #expect(followed && voicerack.isRunning, "after \(frames):\n\(voicerack.output)")
            // mic_in's capture latency is one period (the dummy driver's), plus the engine's.
            let line = voicerack.output.components(separatedBy: "\n").last {
                $0.contains("buffer size is now \(frames) ")
            }
            let engine = try #require(line.flatMap(Self.statedLatency), "\(voicerack.output)")
            let expected = frames + engine
            let reported = poll(timeout: 10) {
                (try? server.lsp(["-l", "\(Self.client):voice_out"]))?.contains(
                    "capture latency = [ \(expected) \(expected) ]") == true
            }
            #expect(reported, "after \(frames): \((try? server.lsp(["-l", "\(Self.client):voice_out"])) ?? "")")
        }
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
    }

    /// The latency in samples from the startup line ("voice latency N samples").
    static func statedLatency(_ output: String) -> Int? {
        guard let range = output.range(of: "voice latency ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }
}
