import Foundation
import Testing
import VoiceControl
import VoiceOSC

/// `--osc-secret-file`: liblo's own `oscsend` and a python3-liblo peer reach the session only
/// with the secret as the first argument; the secret is never sent back; beyond loopback the
/// surface does not start without one.
@Suite("OSC: a shared secret keeps out who does not know it", .serialized)
struct OSCSecretTests {
    static let secret = "s3cret-Otter-4417"

    /// Sends ADDRESS with ARG... (strings) and prints every message that came back within 3 s.
    static let ask = #"""
        import json, sys, time, liblo
        port, address, arguments = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
        server = liblo.Server()
        got = []
        server.add_method(None, None, lambda path, args, types, src: got.append([path] + list(args)))
        server.send(("127.0.0.1", port), address, *arguments)
        deadline = time.monotonic() + 3
        while not got and time.monotonic() < deadline:
            server.recv(50)
        print(json.dumps({"answers": got}))
        """#

    /// A secret file in a fresh folder; removed by the caller.
    static func secretFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "voicerack-osc-secret-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static var oscsendAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/oscsend") }

    @Test(
        "without the secret, or with a wrong one, a message is refused and never reaches the session; with it, it runs",
        .enabled(if: LibloPeer.available && oscsendAvailable, "python3-liblo or oscsend is missing"))
    func secretIsDemanded() throws {
        let file = try Self.secretFile(Self.secret + "\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let secret = try OSCSecret(file: file)
        try SessionStandIn.withOSC(secret: secret) { session, port in
            func ask(_ address: String, _ arguments: [String]) throws -> [[Any]] {
                try LibloPeer.run(Self.ask, port: port, [address] + arguments)["answers"] as? [[Any]] ?? []
            }
            let refusal = "this OSC port needs its secret as each message's first argument (s); see --osc-secret-file"
            for arguments in [
                [], ["output.gain_db"], ["s3cret-Otter-4418", "output.gain_db"], ["s3cret", "output.gain_db"],
            ] {
                let answers = try ask("/voicerack/get", arguments)
                #expect(answers.count == 1, "\(arguments): \(answers)")
                #expect(answers.first?.first as? String == "/voicerack/error", "\(arguments)")
                #expect(answers.first?.last as? String == refusal, "\(arguments): \(answers)")
            }
            // liblo's own sender, without the secret: refused before the session sees it.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
            process.arguments = ["127.0.0.1", String(port), "/voicerack/set", "sf", "output.gain_db", "-6"]
            try process.run()
            process.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.3)
            #expect(session.sets.withLock { $0 } == 0)

            let admitted = try ask("/voicerack/get", [Self.secret, "output.gain_db"])
            #expect(admitted.first?.first as? String == "/voicerack/reply", "\(admitted)")
            #expect(admitted.first?.dropFirst().first as? String == "/voicerack/get")
            let set = try ask("/voicerack/set", [Self.secret, "output.gain_db", "-6"])
            #expect(set.first?.first as? String == "/voicerack/reply", "\(set)")
            #expect(session.sets.withLock { $0 } == 1)
            // Nothing that came back quotes the secret.
            for answer in admitted + set {
                #expect(!answer.contains { "\($0)".contains(Self.secret) }, "\(answer)")
            }
        }
    }

    @Test("beyond loopback OSC does not start without a secret; a short or missing secret file is refused unquoted")
    func secretRequiredBeyondLoopback() throws {
        let surface = OSCSurface(host: "0.0.0.0", port: 0)
        do {
            _ = try surface.start(ControlHub())
            surface.stop()
            Issue.record("started on 0.0.0.0 without a secret")
        } catch {
            #expect(error.code == 64)
            #expect(error.message.contains("give --osc-secret-file FILE"), "\(error.message)")
        }
        let short = try Self.secretFile("hunter2\n")
        defer { try? FileManager.default.removeItem(atPath: short) }
        #expect {
            try OSCSecret(file: short)
        } throws: { error in
            let message = (error as? OSCSecretError)?.message ?? ""
            return message.contains("8 to 256 bytes; it holds 7") && !message.contains("hunter2")
        }
        #expect(throws: OSCSecretError.self) { try OSCSecret(file: short + ".missing") }
        let wide = OSCSurface(host: "0.0.0.0", port: 0, secret: try OSCSecret(file: try Self.secretFile(Self.secret)))
        let lines = try wide.start(ControlHub())
        wide.stop()
        #expect(lines.contains { $0.hasPrefix("warning: OSC listens on 0.0.0.0:") && $0.contains("unencrypted") })
        #expect(!lines.joined().contains(Self.secret))
    }
}
