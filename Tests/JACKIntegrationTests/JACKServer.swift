import Foundation
import Testing

/// A private jackd with the dummy driver (48 kHz, 256-sample periods) under a unique name, in
/// synchronous mode (`-S`).
///
/// Why synchronous: on a loaded machine (a compiler and linker running beside the tests) the
/// dummy driver's thread stalls for seconds, jackd2 then counts every missed period as an xrun
/// (956 in 5 s, seen in CI), and in its default asynchronous mode the output of a client that did
/// not finish in its cycle reads as silence downstream. jack_capture then heard silence on
/// speaker_out_L, and voicerack heard silence on mic_in from jack_simple_client, while
/// voicerack's own meters showed it playing the backing track: the graph, not voicerack, lost
/// the audio. In synchronous mode the server waits for the graph, so what a client wrote is what
/// the next one reads, however late.
final class JACKServer {
    let name: String
    let jackd: ChildProcess

    /// Starts jackd at `rate` Hz and waits (up to `timeout` seconds) until a client can connect.
    /// `synchronous: false` runs jackd2's default asynchronous mode, where the server's timeline
    /// goes on while a client does not run.
    init(timeout: Double = 10, rate: Int = 48_000, synchronous: Bool = true) throws {
        name = "voicerack-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        jackd = try ChildProcess(
            Tools.jackd!, ["-n", name] + (synchronous ? ["-S"] : []) + ["-d", "dummy", "-r", "\(rate)", "-p", "256"],
            environment: Tools.environment)
        let ready = poll(timeout: timeout) {
            guard jackd.isRunning else { return true }
            return (try? runTool(Tools.jackLsp!, ["-s", name]).status) == 0
        }
        guard ready, jackd.isRunning else {
            let log = jackd.output
            jackd.stop(SIGKILL)
            throw ServerError(message: "jackd '\(name)' did not come up within \(timeout) s:\n\(log)")
        }
    }

    deinit { stop() }

    /// Stops jackd (SIGTERM, then SIGKILL after 5 s).
    func stop() { jackd.stop(SIGTERM) }

    /// `jack_lsp -s NAME ARGS…`'s output.
    func lsp(_ arguments: [String]) throws -> String {
        try runTool(Tools.jackLsp!, ["-s", name] + arguments).output
    }

    /// Ports (full names) and their properties line (`input,` / `output,physical,terminal,` …).
    func portProperties() throws -> [String: String] {
        var result: [String: String] = [:]
        var current: String?
        for line in try lsp(["-p"]).split(separator: "\n") {
            if line.hasPrefix("\t") || line.hasPrefix(" ") {
                let text = line.trimmingCharacters(in: .whitespaces)
                if let current, text.hasPrefix("properties:") {
                    result[current] = String(text.dropFirst("properties:".count)).trimmingCharacters(in: .whitespaces)
                }
            } else {
                current = String(line)
            }
        }
        return result
    }

    /// Connects two ports with jack_connect; returns its exit status.
    @discardableResult
    func connect(_ source: String, _ destination: String) throws -> Int32? {
        try runTool(Tools.jackConnect!, ["-s", name, source, destination]).status
    }

    /// Sets the server's buffer size with jack_bufsize (which only reads $JACK_DEFAULT_SERVER);
    /// returns its exit status.
    @discardableResult
    func setBufferSize(_ frames: Int) throws -> Int32? {
        try runTool(Tools.jackBufsize!, ["\(frames)"], environment: ["JACK_DEFAULT_SERVER": name]).status
    }

    struct ServerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
