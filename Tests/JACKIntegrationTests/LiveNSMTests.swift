import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// voicerack under a session manager: `nsm-server.py`, a minimal NSM server written against the
/// published API 1.1 on python3-liblo (no NSM server is packaged in Debian), launches voicerack
/// with NSM_URL and no subcommand, as nsmd does, and checks every message and reply.
extension LiveClientTests {
    @Test(
        "NSM: announce, open (the JACK client appears only then, named by the client id), dirty/clean, save, messages, SIGTERM, reopen",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func nsmSession() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try Self.runNSMServer([], folder: folder, timeout: 120)
        var steps: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            guard let step = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = step["step"] as? String
            else { continue }
            steps[name] = step
        }
        let log = (try? String(contentsOfFile: folder + "/voicerack-1.log", encoding: .utf8)) ?? ""
        let context = "nsm-server.py:\n\(output)\nvoicerack:\n\(log)"
        let client = "voicerack.nTEST"
        let session = folder + "/" + client

        // The announce: ,sssiii with the name, the capabilities it has, API 1.1 and its pid.
        let announce = try #require(steps["first-announce"], "\(context)")
        #expect(announce["types"] as? String == "sssiii", "\(context)")
        let announced = announce["args"] as? [Any] ?? []
        #expect(announced.first as? String == "voicerack", "\(context)")
        #expect(announced.count == 6 && announced[1] as? String == ":dirty:message:", "\(context)")
        #expect(announced.count == 6 && announced[3] as? Int == 1 && announced[4] as? Int == 1, "\(context)")
        #expect(announced.count == 6 && announced[5] as? Int == announce["child_pid"] as? Int, "\(context)")
        // No JACK client before the open; after it, one named by the client id, running the
        // session's preset copy (written from the default preset, echo-cancel, on first open).
        #expect((steps["first-before-open"]?["clients"] as? [String])?.contains(client) == false, "\(context)")
        let open = try #require(steps["first-open"], "\(context)")
        #expect(open["types"] as? String == "ss", "\(context)")
        #expect((open["reply"] as? [Any])?.first as? String == "/nsm/client/open", "\(context)")
        #expect((open["clients"] as? [String])?.contains(client) == true, "\(context)")
        #expect(
            (open["reply"] as? [Any])?.last as? String
                == "voicerack runs as JACK client '\(client)', preset Test Session")
        #expect(
            log.contains(
                "NSM: new session 'Test Session': wrote its preset copy \(session)/preset.toml from preset echo-cancel"),
            "\(context)")

        // A live change marks the session dirty; save writes it and marks it clean.
        #expect(steps["live-change"]?["dirty"] as? Bool == true, "\(context)")
        let save = try #require(steps["save"], "\(context)")
        #expect((save["reply"] as? [Any])?.first as? String == "/nsm/client/save", "\(context)")
        #expect(save["clean"] as? Bool == true, "\(context)")
        // An error (a broken preset copy on SIGHUP) reaches the manager as /nsm/client/message.
        let message = steps["error-message"]?["message"] as? [Any] ?? []
        #expect(steps["error-message"]?["types"] as? String == "is", "\(context)")
        #expect((message.last as? String)?.contains("gain_db = 99 is out of range") == true, "\(context)")
        #expect(steps["resave"]?["same"] as? Bool == true, "a second save wrote another setup: \(context)")
        let copy = (try? String(contentsOfFile: session + "/preset.toml", encoding: .utf8)) ?? ""
        #expect(copy.contains("gain_db") && copy.contains("= -7.5 ") && copy.contains("[echo_canceller]"), "\(copy)")

        // SIGTERM: a clean exit, the client gone, the take (1 s) finalised under the session.
        let stop = try #require(steps["sigterm"], "\(context)")
        #expect(stop["exit"] as? Int == 0, "\(context)")
        #expect((stop["clients"] as? [String])?.contains(client) == false, "\(context)")
        let takes = stop["recordings"] as? [String] ?? []
        #expect(takes.count == 1, "\(context)")
        if let take = takes.first {
            let audio = try AudioFileContents.read(session + "/recordings/" + take)
            #expect(Self.seconds(audio) >= 0.9, "the take lasts \(Self.seconds(audio)) s")
        }

        // Opened again, the session runs its saved setup: the live change is back.
        #expect((steps["second-before-open"]?["clients"] as? [String])?.contains(client) == false, "\(context)")
        let get = (steps["reloaded"]?["get"] as? [[Any]])?.first ?? []
        #expect(get.count == 5 && get[3] as? Double == -7.5, "\(context)")
        #expect(steps["second-exit"]?["exit"] as? Int == 0, "\(context)")
    }

    @Test(
        "NSM: a refused announce ends voicerack with 69 and the manager's reason, no JACK client made",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func nsmAnnounceRefused() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try Self.runNSMServer(["--refuse"], folder: folder, timeout: 60)
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let step = try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        #expect(step["exit"] as? Int == 69, "\(output)")
        #expect(
            (step["output"] as? String)?.contains(
                "NSM: the session manager refused the announce: API 2.0 only, for this test") == true, "\(output)")
        #expect((step["clients"] as? [String])?.contains { $0.hasPrefix("voicerack") } == false, "\(output)")
    }
}

extension LiveClientTests {
    /// Runs the minimal NSM server (`nsm-server.py`, `options` first) against voicerack on a
    /// private jackd, with `folder` as the session root; returns its output (JSON lines, one a
    /// step), having checked that it exited 0.
    static func runNSMServer(_ options: [String], folder: String, timeout: Double) throws -> String {
        let server = try JACKServer()
        defer { server.stop() }
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("nsm-server.py")
        let (status, output) = try runTool(
            python, [script.path] + options + [folder, server.name, binary], timeout: timeout)
        #expect(status == 0, "nsm-server.py:\n\(output)")
        return output
    }
}
