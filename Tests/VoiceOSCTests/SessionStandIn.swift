import Foundation
import Synchronization
import VoiceControl
import VoiceOSC

/// The session's main thread, played by a thread of the test: takes what the hub holds every
/// millisecond, counts the `set`s and answers each command with `answer`.
///
/// - Its own thread; `start` and `stop` from the test.
final class SessionStandIn: Sendable {
    let hub = ControlHub()
    let sets = Mutex(0)
    private let running = Atomic<Bool>(true)
    private let answer: @Sendable (LiveCommand) -> LiveReply

    init(answer: @escaping @Sendable (LiveCommand) -> LiveReply = { LiveReply(lines: ["\($0)"]) }) {
        self.answer = answer
    }

    func start() {
        Thread { [self] in
            while running.load(ordering: .relaxed) {
                for pending in hub.take() {
                    if case .set = pending.command { sets.withLock { $0 += 1 } }
                    pending.reply(answer(pending.command))
                }
                usleep(1000)
            }
        }.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

extension SessionStandIn {
    /// Runs `body` with a stand-in session (answering with `answer`) behind an OSC surface on a
    /// free loopback port, and that port.
    static func withOSC(
        answer: @escaping @Sendable (LiveCommand) -> LiveReply = { LiveReply(lines: ["\($0)"]) },
        secret: OSCSecret? = nil, _ body: (SessionStandIn, Int) throws -> Void
    ) throws {
        let session = SessionStandIn(answer: answer)
        session.start()
        defer { session.stop() }
        let surface = OSCSurface(host: "127.0.0.1", port: 0, secret: secret)
        _ = try surface.start(session.hub)
        defer { surface.stop() }
        guard let port = surface.address.flatMap({ Int($0.split(separator: ":").last ?? "") }) else {
            throw POSIXError(.EADDRNOTAVAIL)
        }
        try body(session, port)
    }
}

/// A real OSC peer: liblo's Python binding (python3-liblo) running a script given here, as
/// `/usr/bin/python3 -c SCRIPT PORT ARG...`; its last output line is JSON.
///
/// - Test thread only.
enum LibloPeer {
    static let python = "/usr/bin/python3"

    static var available: Bool { (try? run("import liblo\nprint('{}')", port: 0)) != nil }

    /// Runs `script` with `port` and `arguments` as `sys.argv[1...]`; the JSON object it printed
    /// last.
    static func run(_ script: String, port: Int, _ arguments: [String] = []) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, String(port)] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let last = String(decoding: output, as: UTF8.self).split(separator: "\n").last ?? ""
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        else { throw CocoaError(.fileReadCorruptFile) }
        return object
    }
}
