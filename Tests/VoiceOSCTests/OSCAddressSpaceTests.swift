import Testing
import VoiceControl

@testable import VoiceOSC

/// The OSC address space onto `LiveCommand`, liblo's encoding both ways, the pushes' layout and
/// NSM_URL parsing, without a socket.
@Suite struct OSCAddressSpaceTests {
    private func route(_ path: String, _ arguments: [OSCValue] = []) -> OSCAddressSpace.Route {
        OSCAddressSpace.route(OSCMessage(path, arguments))
    }

    /// Typed arguments stay typed (an `f` is a number, `T` a switch); strings are words.
    @Test func everyAddressMapsToItsCommand() {
        #expect(
            route("/voicerack/set", [.string("monitor.master_db"), .float(-6)])
                == .command(.set(key: "monitor.master_db", value: .number(-6))))
        #expect(
            route("/voicerack/set", [.string("output.gain_db"), .float(-7.5)])
                == .command(.set(key: "output.gain_db", value: .number(-7.5))))
        #expect(
            route("/voicerack/set", [.string("monitor.source"), .string("processed")])
                == .command(.set(key: "monitor.source", value: "processed")))
        #expect(
            route("/voicerack/set", [.string("ducking.enabled"), .true])
                == .command(.set(key: "ducking.enabled", value: .boolean(true))))
        #expect(route("/voicerack/get", [.string("output.gain_db")]) == .command(.get(key: "output.gain_db")))
        #expect(route("/voicerack/show") == .command(.show))
        #expect(route("/voicerack/record/start") == .command(.record(true)))
        #expect(
            route("/voicerack/record/start", [.string("mic"), .string("voice")])
                == .command(.recordTaps(["mic", "voice"])))
        #expect(
            route("/voicerack/record/start", [.string("mic"), .int(3)])
                == .failure("/voicerack/record/start takes tap names (s), or nothing; got ,si"))
        #expect(route("/voicerack/record/stop") == .command(.record(false)))
        #expect(route("/voicerack/backing/play") == .command(.backing(.play)))
        #expect(route("/voicerack/backing/pause") == .command(.backing(.pause)))
        #expect(route("/voicerack/backing/toggle") == .command(.backing(.toggle)))
        #expect(
            route("/voicerack/backing/level", [.int(-12)])
                == .command(.set(key: "backing.level_db", value: .number(-12))))
        #expect(route("/voicerack/monitor/unmute") == .command(.unmuteMonitor))
        #expect(route("/voicerack/voice/mute", [.int(1)]) == .command(.muteVoice(true)))
        #expect(route("/voicerack/voice/mute", [.false]) == .command(.muteVoice(false)))
        #expect(route("/voicerack/stream/start") == .command(.stream(true)))
        #expect(route("/voicerack/stream/stop") == .command(.stream(false)))
        #expect(route("/voicerack/preset/load", [.string("podcast")]) == .command(.loadPreset("podcast")))
        #expect(route("/voicerack/preset/save", [.string("/tmp/x.toml")]) == .command(.savePreset("/tmp/x.toml")))
        #expect(route("/voicerack/status") == .command(.status))
        #expect(route("/voicerack/meters/register") == .registerMeters(rate: 10, port: nil))
        #expect(route("/voicerack/meters/register", [.float(30)]) == .registerMeters(rate: 30, port: nil))
        #expect(route("/voicerack/meters/register", [.int(5), .int(9001)]) == .registerMeters(rate: 5, port: 9001))
        for port: OSCValue in [.int(0), .int(65536), .float(9001.5), .string("9001")] {
            let why = "\(route("/voicerack/meters/register", [.int(5), port]))"
            #expect(why.contains("reply port must be 1-65535"), "\(port): \(why)")
        }
        #expect(route("/voicerack/meters/unregister") == .unregisterMeters(port: nil))
        #expect(route("/voicerack/meters/unregister", [.int(9001)]) == .unregisterMeters(port: 9001))
        #expect(route("/voicerack/help") == .help)
    }

    @Test("each declared parameter has its own address: a value sets it, none reads it, others are refused")
    func parameterAddresses() {
        let declared: Set = ["compressor.threshold_dbfs", "output.gain_db"]
        func route(_ path: String, _ arguments: [OSCValue] = []) -> OSCAddressSpace.Route {
            OSCAddressSpace.route(OSCMessage(path, arguments), parameters: declared)
        }
        #expect(OSCAddressSpace.address(of: "compressor.threshold_dbfs") == "/voicerack/compressor/threshold_dbfs")
        #expect(
            route("/voicerack/compressor/threshold_dbfs", [.float(-18)])
                == .command(.set(key: "compressor.threshold_dbfs", value: .number(-18))))
        #expect(
            route("/voicerack/output/gain_db", [.int(-6)]) == .command(.set(key: "output.gain_db", value: .number(-6))))
        #expect(route("/voicerack/output/gain_db") == .command(.get(key: "output.gain_db")))
        guard case .failure(let two) = route("/voicerack/output/gain_db", [.float(1), .float(2)]) else {
            Issue.record("two values were taken")
            return
        }
        #expect(two.contains("takes a value (f, i, d, s, T or F) to set output.gain_db, or nothing to read it"))
        // Not declared, or not a key's shape: unknown, as before.
        for path in ["/voicerack/compressor/ratio", "/voicerack/output/gain_db/x", "/voicerack/output.gain_db"] {
            guard case .failure(let why) = route(path, [.float(1)]) else {
                Issue.record("\(path) was routed")
                continue
            }
            #expect(why.hasPrefix("unknown address"), "\(why)")
        }
        // The fixed addresses keep their meaning beside them.
        #expect(route("/voicerack/get", [.string("output.gain_db")]) == .command(.get(key: "output.gain_db")))
    }

    @Test func wrongMessagesSayWhatIsWrong() {
        #expect(route("/voicerack/nope") == .failure("unknown address /voicerack/nope; /voicerack/help lists them"))
        #expect(
            route("/voicerack/set", [.int(1)])
                == .failure("/voicerack/set takes a key (s) and a value (f, i, d, s, T or F); got ,i"))
        #expect(route("/voicerack/status", [.int(1)]) == .failure("/voicerack/status takes no arguments; got ,i"))
        #expect(
            route("/voicerack/voice/mute", [.int(2)])
                == .failure("/voicerack/voice/mute takes 1 or T to mute, 0 or F to open; got ,i"))
        #expect(
            route("/voicerack/meters/register", [.float(31)])
                == .failure(
                    "/voicerack/meters/register takes a rate in Hz (f or i), 1...30, and optionally a reply port (i); got ,f 31"
                ))
        #expect(
            route("/voicerack/meters/register", [.float(.nan)])
                == .failure(
                    "/voicerack/meters/register takes a rate in Hz (f or i), 1...30, and optionally a reply port (i); got ,f nan"
                ))
    }

    @Test func messagesRoundTripThroughLiblo() throws {
        let message = OSCMessage(
            "/voicerack/x", [.int(-3), .float(1.5), .double(2.25), .string("ümlaut"), .true, .false, .nil])
        let bytes = try #require(message.encoded())
        #expect(bytes.count % 4 == 0)
        let decoded = try OSCMessage(decoding: bytes)
        #expect(decoded.path == message.path)
        #expect(decoded.arguments == message.arguments, "\(decoded.arguments)")
        #expect(OSCMessage("/x", [.string("a\u{0}b")]).encoded() == nil)
    }

    @Test func packetsThatAreNotMessagesAreNamed() {
        func reason(_ bytes: [UInt8]) -> String? {
            do {
                _ = try OSCMessage(decoding: bytes)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason([]) == "an empty packet")
        #expect(reason(Array("#bundle\u{0}".utf8) + [UInt8](repeating: 0, count: 8))?.contains("bundle") == true)
        #expect(reason(Array("garbage".utf8))?.hasPrefix("not an OSC message") == true)
        let good = OSCMessage("/voicerack/get", [.string("output.gain_db")]).encoded()!
        #expect(reason(Array(good.prefix(good.count - 4)))?.hasPrefix("not an OSC message") == true)
    }

    @Test func pushesHaveTheirDocumentedLayout() {
        var s = LiveSnapshot()
        s.mic = .init(level: -18, peak: -6)
        s.backingPlaying = true
        let meters = OSCReplies.meters(s)
        #expect(meters.typeTags == "ffffffff")
        #expect(meters.arguments.prefix(3) == [.float(-18), .float(-6), .float(-120)])
        s.echoRemovalDB = 41.6
        s.xruns = 3
        s.recording = .init(seconds: 12, files: ["v.wav"], failedFiles: 0, framesLost: 700, framesNotRun: 512)
        let state = OSCReplies.state(s)
        // Self-describing: a name (s), then its value, for every figure described once.
        #expect(state.arguments.count == 2 * LiveFigure.all.count)
        var pairs: [String: OSCValue] = [:]
        for i in stride(from: 0, to: state.arguments.count, by: 2) {
            guard case .string(let name) = state.arguments[i] else {
                Issue.record("argument \(i) is not a name: \(state.arguments[i])")
                continue
            }
            pairs[name] = state.arguments[i + 1]
        }
        #expect(pairs["echo_db"] == .float(41.6))
        #expect(pairs["echo_verdict"] == .string("good"))
        #expect(pairs["delay_ms"] == .nil, "not measured yet")
        #expect(pairs["xruns"] == .int(3))
        #expect(pairs["frames_lost_disk"] == .int(188))
        #expect(pairs["frames_not_run"] == .int(512))
        #expect(pairs["backing"] == .float(1))
        s.echoRemovalDB = 24
        #expect(OSCReplies.state(s).arguments[3] == .string("fair: faint echo may be heard"))
        s.echoRemovalDB = nil
        s.farActive = true
        #expect(OSCReplies.state(s).arguments[3] == .string("measuring"))
    }

    @Test func nsmURLsParse() {
        #expect(NSMClient.parse("osc.udp://127.0.0.1:12345/").map { "\($0.0) \($0.1)" } == "127.0.0.1 12345")
        #expect(NSMClient.parse("osc.udp://myhost:7000").map { "\($0.0) \($0.1)" } == "myhost 7000")
        #expect(NSMClient.parse("osc.udp://[::1]:7000/").map { "\($0.0) \($0.1)" } == "::1 7000")
        #expect(NSMClient.parse("osc.tcp://h:1/") == nil)
        #expect(NSMClient.parse("osc.udp://h:99999/") == nil)
        #expect(NSMClient.parse("osc.udp://:1/") == nil)
    }
}
