import Foundation
import Testing
import VoiceFiles

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
/// the next one reads, however late. The price is jackd2's synchronous-mode wedge, which
/// `JACKWedgeWatch` watches for and `RedoOnJACKWedge` answers by running the test again.
final class JACKServer {
    let name: String
    let jackd: ChildProcess
    /// The running test's wedge watch (`RedoOnJACKWedge`), told when the server stops.
    private let wedgeWatch = JACKWedgeWatch.current

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
        wedgeWatch?.watch(jackd, name: name)
    }

    /// How many of jackd's cycles so far ended with its graph not completed (see `JACKWedgeWatch`).
    var incompleteCycles: Int { JACKWedgeWatch.incompleteCycles(in: jackd.output) }

    deinit { stop() }

    /// Stops jackd (SIGTERM, then SIGKILL after 5 s).
    func stop() {
        wedgeWatch?.serverStopped(name)
        jackd.stop(SIGTERM)
    }

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

extension JACKServer {
    /// Starts jack_capture recording `ports` into `path` (float WAV, one channel per port) until
    /// it is stopped with SIGINT, and waits until it is connected to every port.
    ///
    /// Two ways jack_capture fails that are the server's and not voicerack's are handled: its
    /// `-d SECONDS` form now and then never finished on a loaded machine (so it runs until
    /// stopped), and a server busy with a graph change refuses a new client now and then ("Can
    /// not activate client", seen under scripts/dev/stress-tests.sh): jack_capture then exits at once,
    /// and is started again, at most three times in all. Anything else is an error.
    func startCapture(_ ports: [String], to path: String) throws -> ChildProcess {
        var attempts: [String] = []
        for _ in 1...3 {
            let capture = try ChildProcess(
                Tools.jackCapture!,
                ["-ns", "-s", "-dc", "-c", "\(ports.count)"] + ports.flatMap { ["-p", $0] } + [path],
                environment: Tools.environment.merging(["JACK_DEFAULT_SERVER": name]) { $1 })
            let connected = poll(timeout: 15) {
                guard capture.isRunning else { return true }
                return ports.allSatisfy { (try? lsp(["-c", $0]))?.contains("jack_capture") == true }
            }
            if connected && capture.isRunning { return capture }
            capture.stop(SIGKILL)
            attempts.append(capture.output)
            guard capture.output.contains("Can not activate client") || capture.output.contains("Cannot open") else {
                break
            }
        }
        throw ServerError(
            message: "jack_capture did not connect to \(ports.joined(separator: ", ")):\n"
                + attempts.joined(separator: "\n---\n"))
    }
}

extension JACKServer {
    /// Records `ports` with jack_capture (`startCapture`) until its file holds at least `frames`
    /// frames (jack_capture writes as it goes; its first blocks can take a while to reach the
    /// file on a loaded machine, so this waits for them rather than for a fixed time), then stops
    /// it with SIGINT and returns the file's audio.
    func capture(_ ports: [String], frames: Int, to path: String) throws -> AudioFileContents {
        let capture = try startCapture(ports, to: path)
        defer { capture.stop(SIGKILL) }
        // At least 2 bytes a sample (jack_capture's smallest format) after a WAV header.
        let bytes = 1_024 + frames * ports.count * 2
        let filled = poll(timeout: 20) {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size >= bytes || !capture.isRunning
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let runningAtEnd = capture.isRunning
        capture.send(SIGINT)
        let status = capture.waitForExit(timeout: 10)
        guard status == 0, filled else {
            // Everything that tells the server's, jack_capture's and the machine's part apart.
            let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
            throw ServerError(
                message: """
                    jack_capture did not record \(frames) frames of \(ports): its file held \(size) of \(bytes) \
                    bytes after 20 s; jack_capture \(runningAtEnd ? "was still running" : "had exited"), \
                    exit status \(status.map(String.init) ?? "none within 10 s of SIGINT"); jackd \
                    \(jackd.isRunning ? "running" : "gone"), \(incompleteCycles) cycles with its graph not completed; load average \(load); its output:
                    \(capture.output)
                    """)
        }
        return try AudioFileContents.read(path)
    }
}
