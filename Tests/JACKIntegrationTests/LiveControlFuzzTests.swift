import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run --control` fed hostile lines through a FIFO: control characters are echoed
/// escaped, never obeyed, and random lines (commands, keys, values, bytes) never crash it.
extension LiveClientTests {
    /// A `voicerack run --preset raw --control` reading the FIFO it returns, and a writer to it.
    final class ControlledClient {
        let fifo: String
        let child: ChildProcess
        let commands: FileHandle

        init(on server: JACKServer, name: String) throws {
            fifo = NSTemporaryDirectory() + "voicerack-it-fuzz-\(getpid())-\(UUID().uuidString)"
            guard mkfifo(fifo, 0o600) == 0 else { throw CancellationError() }
            let binary = try #require(Tools.voicerack)
            child = try ChildProcess(
                binary,
                ["run", "--server", server.name, "--name", name, "--no-auto-connect", "--preset", "raw", "--control"],
                environment: Tools.environment, input: fifo)
            commands = try #require(FileHandle(forWritingAtPath: fifo))
            let up = poll(timeout: 20) { !child.isRunning || child.output.contains("running as JACK client") }
            guard up, child.isRunning else {
                Issue.record("voicerack did not come up: \(child.output)")
                throw CancellationError()
            }
        }

        deinit {
            child.stop(SIGKILL)
            unlink(fifo)
        }

        func send(_ text: String) { commands.write(Data((text + "\n").utf8)) }

        /// Sends a `set` whose answer is known and waits for it: every line before it was read.
        func sync(_ marker: Int) -> Bool {
            let value = "-\(marker % 40).5"
            send("set output.gain_db \(value)")
            return poll(timeout: 30) { !child.isRunning || child.output.contains("output.gain_db = \(value)") }
                && child.isRunning
        }
    }

    @Test("--control echoes control characters escaped, never raw")
    func controlCharactersEscaped() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let client = try ControlledClient(on: server, name: "vr-esc")
        client.send("\u{1B}[2Jwipe\u{07}")
        client.send("set output.gain_db \u{1B}]0;title\u{07}")
        client.send("unmute\u{202E}")
        #expect(client.sync(1), "\(client.child.output)")
        let output = client.child.output
        #expect(output.contains("unknown command '\\x1b[2Jwipe\\x07'; try help"), "\(output)")
        #expect(output.contains("\\x1b]0;title\\x07"), "\(output)")
        #expect(output.contains("unknown command 'unmute\\u{202e}'; try help"), "\(output)")
        let raw = output.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0.value == 0x202E
        }
        #expect(raw.isEmpty, "raw control characters in the output: \(raw.map(\.value))")
        client.child.send(SIGINT)
        #expect(client.child.waitForExit(timeout: 20) == 0)
    }

    /// Random `--control` lines: real commands with real, wrong and absurd keys and values,
    /// random bytes, long lines. The client must answer them all and exit 0 on SIGINT.
    @Test("fuzz: random --control lines never crash voicerack run")
    func fuzzControlLines() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let client = try ControlledClient(on: server, name: "vr-fuzz")
        var random = SeededRandom(seed: UInt64(ProcessInfo.processInfo.environment["VOICERACK_FUZZ_SEED"] ?? "") ?? 17)
        var tally = FuzzTally("control lines")
        let count = FuzzTally.budget(300)
        var batch = 0
        for i in 0..<count {
            let line = ControlFuzz.line(&random)
            client.send(line)
            batch += 1
            // Every 50 lines (and at the end), wait until the client has answered them all.
            guard batch == 50 || i == count - 1 else { continue }
            let alive = client.sync(i)
            for _ in 0..<batch { tally.recordAnswered(clean: alive, input: "line \(i)") }
            batch = 0
            if !alive { break }
        }
        client.child.send(SIGINT)
        let status = client.child.waitForExit(timeout: 20)
        print(tally.summary)
        #expect(tally.crashes.isEmpty, "\(tally.crashes.prefix(3)) \(client.child.output.suffix(2000))")
        #expect(status == 0, "exit \(String(describing: status))")
        #expect(tally.tried == count)
    }
}

/// Random `--control` lines.
enum ControlFuzz {
    static let keys = [
        "output.gain_db", "input.gain_db", "monitor.master_db", "monitor.voice_pan", "compressor.threshold_dbfs",
        "equalizer.band1_q", "delay.feedback", "chain.order", "echo_canceller.tail_ms", "backing.level_db",
        "recording.format", "agc.enabled", "monitor.source", "nope.key", "output", ".", "a.b.c", "",
    ]
    static let values = [
        "0", "-0", "1e308", "-1e308", "nan", "inf", "-inf", "1e-320", "0x10", "true", "false", "\"\"", "\"",
        "processed", "dry", "gate, gate", "9223372036854775808", "-6", "12", "0.95", "0.1", "'x'", "[1]",
    ]
    /// Real commands and near misses; a bare `quit` or `exit` ends the session on purpose (the
    /// terminal's own), so only its near misses are fuzzed.
    static let commands = ["set", "show", "unmute", "help", "SET", "set set", "quit now", "exit 0", ""]

    static func line(_ random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            return "set \(keys.randomElement(using: &random)!) \(values.randomElement(using: &random)!)"
        case 2:
            return commands.randomElement(using: &random)! + (Bool.random(using: &random) ? " extra words" : "")
        case 3:
            // Random scalars, control characters included (never "\n", which ends the line).
            let n = Int.random(in: 0..<40, using: &random)
            return String(
                String.UnicodeScalarView(
                    (0..<n).map { _ in
                        let v = UInt32.random(in: 1..<0x300, using: &random)
                        return Unicode.Scalar(v == 0x0A ? 0x0B : v)!
                    }))
        case 4:
            // A long line: a key or value of kilobytes.
            let long = String(repeating: "9", count: Int.random(in: 1_000..<20_000, using: &random))
            return Bool.random(using: &random) ? "set output.gain_db \(long)" : "set \(long) 1"
        default:
            let key = keys.randomElement(using: &random)!
            return "set \(key) \(Double.random(in: -1e6...1e6, using: &random))"
        }
    }
}
