import Foundation
import Testing

/// Runs `voicerack-testpeer` (built next to `voicerack`) against a voicerack client.
///
/// - Realtime: never; test thread.
enum TestPeer {
    /// The peer executable of this build, or nil.
    static var executable: String? {
        guard let voicerack = Tools.voicerack else { return nil }
        let path = (voicerack as NSString).deletingLastPathComponent + "/voicerack-testpeer"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Starts the peer on `server` playing `mic` and `ref` into `target`, recording to `out`,
    /// with `extra` arguments (e.g. `--freewheel`).
    static func start(
        server: JACKServer, target: String, mic: String, ref: String, out: String, extra: [String] = []
    ) throws -> ChildProcess {
        let binary = try #require(executable, "voicerack-testpeer was not built next to voicerack")
        return try ChildProcess(
            binary,
            [
                "--server", server.name, "--target", target, "--mic", mic, "--ref", ref, "--out", out, "--tail", "0.5",
                "--timeout", "90",
            ] + extra,
            environment: Tools.environment)
    }

    /// Waits (up to `timeout` s) for a started peer to finish; records an issue with its output
    /// and returns nil unless it exited 0.
    static func finish(_ peer: ChildProcess, timeout: Double = 120) -> String? {
        let status = peer.waitForExit(timeout: timeout)
        guard status == 0 else {
            Issue.record("voicerack-testpeer exited \(status.map(String.init) ?? "(still running)"):\n\(peer.output)")
            peer.stop(SIGKILL)
            return nil
        }
        return peer.output
    }

    /// The peer's closing report line ("testpeer: played …"), or all its output if it has none.
    static func summary(_ output: String) -> String {
        output.split(separator: "\n").last { $0.hasPrefix("testpeer: played") }.map(String.init) ?? output
    }

    /// The xruns the peer saw while it ran, from the report line.
    static func xruns(_ output: String) -> Int? {
        guard let range = output.range(of: "; xruns ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    /// The frames of every cycle the peer ran while the server freewheeled (`--freewheel`).
    static func freewheelFrames(_ output: String) -> Int? {
        guard let range = output.range(of: "; freewheel frames ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    /// The frame at which the period first changed during playback, from the report line (-1: never).
    static func periodChangedAt(_ output: String) -> Int? {
        guard let range = output.range(of: "period changed at frame ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
    }
}
