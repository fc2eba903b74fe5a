import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run --osc`: a real OSC peer (python3-liblo, `osc-peer.py`) drives a running client
/// on a dummy jackd: a level set over OSC, recording started and stopped, meter pushes at the
/// asked rate, and malformed or random messages answered without harm.
extension LiveClientTests {
    static let python = "/usr/bin/python3"
    static var oscPeerAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && (try? runTool(python, ["-c", "import liblo"]).status) == 0
    }

    /// Runs `osc-peer.py` with `arguments`; returns its JSON lines.
    static func oscPeer(_ arguments: [String], timeout: Double = 60) throws -> [[String: Any]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("osc-peer.py")
        let (status, output) = try runTool(python, [script.path] + arguments, timeout: timeout)
        #expect(status == 0, "osc-peer.py \(arguments) failed:\n\(output)")
        return output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Sends one message to voicerack's OSC port and returns what came back: the answer to
    /// `address` (path and arguments), and the peer's clock when it sent and got it.
    static func oscAsk(_ port: Int, _ address: String, _ arguments: [String] = []) throws -> OSCAnswer {
        let lines = try oscPeer(["ask", String(port), address] + arguments)
        let sent = try #require(lines.first?["sent"] as? Double, "no send time in \(lines)")
        let answer = try #require(
            lines.last {
                ($0["path"] as? String).map { $0 == "/voicerack/reply" || $0 == "/voicerack/error" } ?? false
            },
            "no answer to \(address): \(lines)")
        return OSCAnswer(
            path: answer["path"] as? String ?? "", arguments: answer["args"] as? [Any] ?? [], sent: sent,
            received: answer["t"] as? Double ?? 0,
            before: lines.dropFirst().dropLast().compactMap { $0["path"] as? String })
    }

    struct OSCAnswer {
        let path: String
        let arguments: [Any]
        let sent: Double
        let received: Double
        /// Paths of the messages that came before the answer (`/voicerack/key` for show).
        let before: [String]
        var isReply: Bool { path == "/voicerack/reply" }
        var text: String { arguments.dropFirst().map { "\($0)" }.joined(separator: " | ") }
    }

    /// The UDP port voicerack printed (`OSC on udp 127.0.0.1:PORT`).
    static func oscPort(_ child: ChildProcess) throws -> Int {
        var port: Int?
        _ = poll(timeout: 10) {
            guard let range = child.output.range(of: "OSC on udp 127.0.0.1:") else { return false }
            port = Int(child.output[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        return try #require(port, "no OSC port in:\n\(child.output)")
    }

    /// Runs `body` with voicerack (`--osc 0`, in a fresh folder, on its own jackd): the child,
    /// its OSC port, the folder and the server; then stops it with SIGINT and expects a clean exit.
    func withOSCClient(_ body: (ChildProcess, Int, String, JACKServer) throws -> Void) throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (voicerack, _) = try launchRecordingClient(on: server, ["--osc", "0"], in: folder)
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        try body(voicerack, port, folder, server)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
    }

    static let oscTools = Tools.jackCapture != nil && Tools.jackSimpleClient != nil && oscPeerAvailable

    @Test(
        "OSC: /voicerack/set output.gain_db -12 lowers voice_out by 12 dB; get reads it back; errors name the key",
        .enabled(if: oscTools, "jack_capture, jack_simple_client or python3-liblo is missing"))
    func oscSetChangesVoiceLevel() throws {
        let rig = try SineRig(["--preset", "raw", "--osc", "0"])
        defer { rig.voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(rig.voicerack)
        let before = try rig.settledRMS()

        let set = try Self.oscAsk(port, "/voicerack/set", ["s:output.gain_db", "f:-12"])
        #expect(set.isReply && set.text == "output.gain_db = -12", "\(set)")
        let after = try rig.voiceRMS()
        let changeDB = 20 * log10(Double(after / before))
        print("OSC set: voice_out \(before) → \(after) RMS (\(String(format: "%.2f", changeDB)) dB)")
        #expect(abs(before - Self.sineRMS) < 0.015)
        #expect(abs(changeDB + 12) < 0.2)

        // Voice mute over OSC: voice_out glides to exact silence, and opens again.
        let mute = try Self.oscAsk(port, "/voicerack/voice/mute", ["T"])
        #expect(mute.isReply && mute.text.hasPrefix("voice_out muted"), "\(mute)")
        let muted = try rig.voiceRMS()
        #expect(muted == 0, "voice_out muted: RMS \(muted)")
        let open = try Self.oscAsk(port, "/voicerack/voice/mute", ["i:0"])
        #expect(open.isReply && open.text == "voice_out open", "\(open)")
        #expect(abs(20 * log10(Double(try rig.voiceRMS() / after))) < 0.2)

        let get = try Self.oscAsk(port, "/voicerack/get", ["s:output.gain_db"])
        #expect(get.isReply && get.arguments.count == 4, "\(get)")
        #expect(get.arguments[1] as? String == "output.gain_db" && get.arguments[2] as? Double == -12, "\(get)")
        let range = try Self.oscAsk(port, "/voicerack/set", ["s:output.gain_db", "i:99"])
        #expect(
            range.path == "/voicerack/error" && range.text.contains("out of range; allowed -40...40 dB"), "\(range)")
        let restart = try Self.oscAsk(port, "/voicerack/set", ["s:echo_canceller.tail_ms", "i:300"])
        #expect(restart.path == "/voicerack/error" && restart.text.contains("needs a restart"), "\(restart)")
        let show = try Self.oscAsk(port, "/voicerack/show")
        #expect(show.isReply && show.before.count > 50 && show.before.allSatisfy { $0 == "/voicerack/key" }, "\(show)")
        rig.stop()
    }

    @Test(
        "OSC: /voicerack/record/start and /stop make a file as long as the server ran between them",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscRecordStartStop() throws {
        try withOSCClient { _, port, folder, server in
            // The server's own clock, not wall time: a dummy jackd on a loaded machine falls behind
            // wall time and catches up later, and a take is as long as the cycles that ran.
            let clock = try ServerFrameClock(server: server.name)
            defer { clock.stop() }

            let notYet = try Self.oscAsk(port, "/voicerack/record/stop")
            #expect(notYet.path == "/voicerack/error" && notYet.text == "not recording", "\(notYet)")
            let start = try Self.oscAsk(port, "/voicerack/record/start")
            #expect(start.isReply && start.text.hasPrefix("recording voice to "), "\(start)")
            let again = try Self.oscAsk(port, "/voicerack/record/start")
            #expect(again.path == "/voicerack/error" && again.text == "already recording; stop first", "\(again)")
            // Wait on the recording itself (its snapshot time), not a sleep of the test's own.
            #expect(
                poll(timeout: 20) { (try? Self.oscAsk(port, "/voicerack/status").text.contains("rec 1 file")) == true })
            Thread.sleep(forTimeInterval: 1.5)
            let stop = try Self.oscAsk(port, "/voicerack/record/stop")
            #expect(stop.isReply && stop.text.hasPrefix("recorded voice to "), "\(stop)")
            #expect(clock.waitPast(stop.received), "the server's clock was not sampled after the stop")

            let name = String(start.text.dropFirst("recording voice to ".count).prefix { $0 != " " })
            let audio = try AudioFileContents.read(name.hasPrefix("/") ? name : folder + "/" + name)
            #expect(audio.sampleRate == clock.sampleRate)
            // The take starts in the cycle that sees the start (between sending it and a cycle
            // after its reply) and ends likewise for the stop; 20 ms of slack either side for
            // those cycles.
            let slack = 0.02 * Double(clock.sampleRate)
            let least = try #require(clock.leastFrames(from: start.received, to: stop.sent))
            let most = try #require(clock.mostFrames(from: start.sent, to: stop.received))
            let frames = Double(audio.channels[0].count)
            print(
                String(
                    format: "OSC record: %.0f frames recorded; the server ran %d to %d between start and stop"
                        + " (%.3f s of wall time)", frames, least, most, stop.received - start.sent))
            #expect(
                frames >= Double(least) - slack && frames <= Double(most) + slack,
                "\(frames) frames not in \(least)...\(most) ± \(slack)")
            // The server's clock runs: a take of ~1.5 s, not an empty or stuck one.
            #expect(least > clock.sampleRate, "the server ran only \(least) frames in a 1.5 s take")
        }
    }

    @Test(
        "OSC: meters pushed at the asked rate (±20%) to the registering address, stopped by unregister",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscMeterPushes() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server, extra: ["--osc", "0"])
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        for rate in [30.0, 10.0, 2.5] {
            let seconds = 3.0
            let result = try #require(try Self.oscPeer(["meters", String(port), String(rate), String(seconds)]).first)
            let times = result["meters"] as? [Double] ?? []
            let replies = result["replies"] as? [[Any]] ?? []
            let measured = times.count > 1 ? Double(times.count - 1) / (times.last! - times.first!) : 0
            print(
                String(
                    format: "OSC meters: asked %.1f Hz, got %d pushes in %.2f s = %.2f Hz", rate, times.count,
                    (times.last ?? 0) - (times.first ?? 0), measured))
            #expect(abs(measured - rate) <= 0.2 * rate, "asked \(rate) Hz, measured \(measured) Hz")
            // Name/value pairs, one per health figure (LiveFigure.all: 20 of them).
            #expect(result["state_fields"] as? [Int] == [40], "\(result)")
            #expect(
                replies.contains { $0.count > 1 && $0[1] as? String == "/voicerack/meters/unregister" }, "\(replies)")
            #expect(!replies.contains { $0.first as? String == "/voicerack/error" }, "\(replies)")
        }
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
    }

    @Test(
        "OSC: garbage, truncated messages and unknown addresses get errors; 1,000 random packets crash nothing",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscFuzz() throws {
        try withOSCClient { voicerack, port, _, _ in

            let unknown = try Self.oscAsk(port, "/voicerack/frobnicate", ["i:1"])
            #expect(unknown.path == "/voicerack/error", "\(unknown)")
            #expect(unknown.text == "unknown address /voicerack/frobnicate; /voicerack/help lists them", "\(unknown)")
            let types = try Self.oscAsk(port, "/voicerack/get", ["i:1"])
            #expect(
                types.path == "/voicerack/error" && types.text == "/voicerack/get takes a key (s); got ,i", "\(types)")
            let rate = try Self.oscAsk(port, "/voicerack/meters/register", ["f:100"])
            #expect(rate.path == "/voicerack/error" && rate.text.contains("1...30"), "\(rate)")

            let tally = try #require(try Self.oscPeer(["fuzz", String(port), "1000", "12"], timeout: 300).first)
            print(
                "OSC fuzz: \(tally.filter { $0.key != "unanswered" }) unanswered \((tally["unanswered"] as? [Any])?.count ?? -1)"
            )
            #expect((tally["unanswered"] as? [Any])?.isEmpty == true, "\(tally)")
            #expect((tally["replies"] as? Int ?? 0) + (tally["errors"] as? Int ?? 0) == 1000, "\(tally)")
            #expect((tally["errors"] as? Int ?? 0) > 500, "\(tally)")
            #expect(voicerack.isRunning, "output:\n\(voicerack.output)")
            let status = try Self.oscAsk(port, "/voicerack/status")
            #expect(status.isReply && status.text.contains("xruns"), "\(status)")
        }
    }

    @Test(
        "OSC: a port in use stops run with 69 before the client opens; --osc-host 0.0.0.0 with a secret warns",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscPortInUseAndWideHost() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let secret = NSTemporaryDirectory() + "voicerack-osc-secret-\(getpid())"
        try Data("Otter-secret-5521\n".utf8).write(to: URL(fileURLWithPath: secret))
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let first = try startVoicerack(
            on: server, extra: ["--osc", "0", "--osc-host", "0.0.0.0", "--osc-secret-file", secret])
        defer { first.stop(SIGKILL) }
        #expect(poll(timeout: 10) { first.output.contains("warning: OSC listens on 0.0.0.0:") }, "\(first.output)")
        #expect(!first.output.contains("Otter-secret-5521"))
        let port = try #require(
            first.output.range(of: "OSC on udp 0.0.0.0:").map {
                Int(first.output[$0.upperBound...].prefix { $0.isNumber })
            } ?? nil)
        let binary = try #require(Tools.voicerack)
        let (status, output) = try runTool(
            binary, ["run", "--server", server.name, "--name", "second", "--no-auto-connect", "--osc", String(port)],
            timeout: 20)
        #expect(status == 69, "\(output)")
        #expect(output.contains("--osc: cannot listen on 127.0.0.1:\(port) (UDP): Address already in use"), "\(output)")
        #expect(!(try server.lsp([])).contains("second:"))
        first.send(SIGINT)
        #expect(first.waitForExit(timeout: 20) == 0, "output:\n\(first.output)")
    }
}
