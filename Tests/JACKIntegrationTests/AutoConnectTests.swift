import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoiceJACK

/// Auto-connect next to a patchbay: it never adds a second source to a port a patchbay already
/// connected, and a preset key turns it off for good.
@Suite(
    "auto-connect and the patchbay", .serialized, RedoOnJACKWedge(),
    .enabled(if: Tools.jackAvailable, "jackd, jack_lsp or jack_connect is not installed (apt install jackd2)"))
struct AutoConnectTests {
    /// The ports `port` is connected to: `jack_lsp -c` prints the port, then each connection
    /// indented by three spaces. Any other line (a message of libjack's, merged into the output
    /// when a server is slow) is not a connection.
    func connections(_ server: JACKServer, _ port: String) throws -> [String] {
        try server.lsp(["-c", port]).split(separator: "\n").filter { $0.hasPrefix("   ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
    }

    /// The driver as `voicerack run` uses it: opened, the engine's host attached, activated.
    func startDriver(on server: JACKServer, name: String) throws -> JACKDriver {
        let driver = try JACKDriver(options: .init(name: name, server: server.name))
        let host = try CycleHost(
            configuration: EngineConfiguration(), sampleRate: driver.sampleRate, blockSize: driver.blockSize)
        try driver.start(host)
        return driver
    }

    // voicerack auto-connects right after activating, before a patchbay watching for new ports
    // could act, so a run cannot order the two reliably. The driver is driven here instead:
    // activated, then the patchbay's connections made (as qjackctl makes them, from outside
    // with jack_connect), then the same autoConnect() call `run` makes.
    @Test("with a patchbay-style connection already made, auto-connect adds nothing to that port")
    func patchbayFirst() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let driver = try startDriver(on: server, name: "vr-patch")
        defer { driver.close() }
        #expect(try server.connect("system:capture_2", "vr-patch:mic_in") == 0)
        #expect(try server.connect("vr-patch:speaker_out_L", "system:playback_2") == 0)

        let notes = driver.autoConnect()

        #expect(try connections(server, "vr-patch:mic_in") == ["system:capture_2"])
        #expect(try connections(server, "vr-patch:speaker_out_L") == ["system:playback_2"])
        // The port the patchbay left alone is still connected, and said so.
        #expect(try connections(server, "vr-patch:speaker_out_R") == ["system:playback_2"])
        #expect(
            notes == [
                "mic_in is already connected; auto-connect left it as it is",
                "speaker_out_L is already connected; auto-connect left it as it is",
                "connected vr-patch:speaker_out_R -> system:playback_2",
            ])
    }

    @Test("without a patchbay, auto-connect connects the first physical ports and says so")
    func noPatchbay() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let driver = try startDriver(on: server, name: "vr-auto")
        defer { driver.close() }

        let notes = driver.autoConnect()

        #expect(try connections(server, "vr-auto:mic_in") == ["system:capture_1"])
        #expect(try connections(server, "vr-auto:speaker_out_L") == ["system:playback_1"])
        #expect(try connections(server, "vr-auto:speaker_out_R") == ["system:playback_2"])
        #expect(try connections(server, "vr-auto:voice_out").isEmpty)
        #expect(notes.first == "connected system:capture_1 -> vr-auto:mic_in")
    }

    @Test("jack.auto_connect = false in a preset: a plain run connects nothing and says why")
    func presetKeyTurnsItOff() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voicerack-ac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let preset = folder.appendingPathComponent("patched.toml").path
        try "base = \"echo-cancel\"\n[jack]\nauto_connect = false\n".write(
            toFile: preset, atomically: true, encoding: .utf8)
        let binary = try #require(Tools.voicerack)
        let child = try ChildProcess(
            binary, ["run", "--server", server.name, "--name", "vr-off", "--preset", preset],
            environment: Tools.environment)
        defer { child.stop(SIGKILL) }
        // The note takes auto-connect's place in the start-up sequence: once it is out, auto-connect would have run.
        #expect(
            poll(timeout: 20) { !child.isRunning || child.output.contains("auto-connect is off") }, "\(child.output)")
        #expect(
            child.output.contains(
                "auto-connect is off (jack.auto_connect = false in preset patched): no port connected"))
        for port in ["mic_in", "speaker_out_L", "speaker_out_R"] {
            #expect(try connections(server, "vr-off:\(port)").isEmpty, "\(port)")
        }
        child.stop(SIGINT)
    }
}
