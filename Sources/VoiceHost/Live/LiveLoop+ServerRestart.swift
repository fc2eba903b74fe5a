import Foundation
import VoiceCycle

/// What `--wait-for-server` keeps across a server's death: the connections to make again, whether
/// the server is being waited for, and the number of the take being recorded.
///
/// - Realtime: never; main thread.
struct ServerRestart {
    /// voicerack's connections as last seen while the server ran.
    var connections: [PortConnection] = []
    /// True from the server's death until a new client runs.
    var waiting = false
    /// When the server went away, for the message when it is back.
    var since = Date()
    /// The next attempt to open a client (every 0.5 s while waiting).
    var nextAttempt = Date()
    /// When the waiting status line was last shown.
    var lastStatus = Date()
    /// Whether recordings were open when the server went away (they resume into new files).
    var resumeRecording = false
    /// 1 until the first restart; the files of take N > 1 are named `NAME-takeN.EXT`.
    var take = 1
}

/// `--wait-for-server`: when the server goes away, the takes are finalised (as on an exit) and
/// voicerack waits for the server to come back, opening a client every 0.5 s (never starting a
/// server); then it registers the same ports under the same name, restores the connections it
/// had (those whose peers still exist), and records on into new files. SIGINT/SIGTERM while
/// waiting stop it as usual (exit 0).
///
/// - Realtime: never; main thread.
extension LiveLoop {
    /// The server's name for messages.
    private var serverName: String { request.options.serverDisplayName }

    /// Remembers the current connections, unless the server died meanwhile (its graph is gone).
    func rememberConnections() {
        let now = driver.connections()
        if !driver.serverHasShutDown { restart.connections = now }
    }

    /// The server went away: finalises the recordings, leaves the dead server and starts waiting.
    func serverWentAway() {
        let reason = driver.shutdownReason.map { ": \($0)" } ?? ""
        out.endLine()
        out.log(
            "JACK server '\(serverName)' shut down\(reason); finalising the recordings and waiting for it to come back (--wait-for-server)",
            level: .error)
        restart.resumeRecording = recorder.isRecording
        for line in recorder.stop(detachingFrom: host) { out.log("take \(restart.take): " + line) }
        if !driver.closeAfterServerLoss(timeout: 5) {
            out.log("the JACK server did not answer within 5 s; leaving it", level: .warning)
        }
        // A process thread that kept the recordings cannot run any more now.
        for line in recorder.stop(detachingFrom: host, force: true) { out.log("take \(restart.take): " + line) }
        out.log("take \(restart.take): " + RecordingText.timing(driver.status(), recorded: restart.resumeRecording))
        restart.waiting = true
        restart.since = Date()
        restart.lastStatus = Date()
        restart.nextAttempt = Date()
    }

    /// Tries to open a client on the server again; once it opens, resumes: the engine follows the
    /// new period, recordings start as the next take, the client activates and the connections
    /// are restored. Throws `.unavailable` when the server came back at another sample rate.
    func retryServer() throws(HostError) {
        if Date().timeIntervalSince(restart.lastStatus) >= out.interval {
            restart.lastStatus = Date()
            let seconds = String(format: "%.0f", Date().timeIntervalSince(restart.since))
            let waiting =
                "waiting for JACK server '\(serverName)' to come back (\(seconds) s); take \(restart.take) is finalised"
            out.status({ width in String(waiting.prefix(max(0, width - 1))) }, logLine: waiting)
        }
        guard Date() >= restart.nextAttempt else { return }
        restart.nextAttempt = Date().addingTimeInterval(0.5)
        guard let fresh = reopen() else { return }
        out.endLine()
        guard fresh.sampleRate == host.sampleRate else {
            fresh.close()
            throw HostError(
                .unavailable,
                "JACK server '\(serverName)' came back at \(fresh.sampleRate) Hz; the engine and the recordings are built for \(host.sampleRate) Hz. Restart voicerack to continue at \(fresh.sampleRate) Hz"
            )
        }
        // The engine follows a new period as on a buffer-size change (nothing if it is the same).
        host.rebuildEngine(for: fresh.blockSize)
        driver = fresh
        restart.waiting = false
        restart.take += 1
        var lines: [String] = []
        if restart.resumeRecording {
            do {
                lines = try recorder.start(host, client: driver.clientName, take: restart.take)
            } catch {
                out.log("cannot resume recording: \(error.message)", level: .error)
            }
        }
        do {
            try driver.start(host)
        } catch {
            _ = recorder.stop(detachingFrom: host, force: true)
            driver.close()
            throw HostError(.unavailable, error.message)
        }
        let problems = driver.restore(restart.connections)
        let seconds = String(format: "%.1f", Date().timeIntervalSince(restart.since))
        out.log(
            "JACK server '\(serverName)' is back after \(seconds) s: running again as '\(driver.clientName)' with the same ports; \(restart.connections.count - problems.count) of \(restart.connections.count) connections restored; take \(restart.take) begins"
        )
        for problem in problems { out.log(problem, level: .warning) }
        for line in lines { out.log(line) }
    }
}
