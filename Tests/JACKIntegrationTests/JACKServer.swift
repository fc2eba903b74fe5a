import Foundation
import Testing

/// A private jackd with the dummy driver (48 kHz unless told, 256-sample periods) under a unique name.
final class JACKServer {
    let name: String
    let jackd: ChildProcess

    /// Starts jackd at `rate` Hz and waits (up to `timeout` seconds) until a client can connect.
    init(timeout: Double = 10, rate: Int = 48_000) throws {
        name = "voicerack-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        jackd = try ChildProcess(
            Tools.jackd!, ["-n", name, "-d", "dummy", "-r", "\(rate)", "-p", "256"], environment: Tools.environment)
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
