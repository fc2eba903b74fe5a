import FlyingFox
import FlyingSocks
import Synchronization

/// The panel server's own log lines that a user should see (a failed accept, a client refused
/// for breaking a bound), handed to the session's log through `note`; FlyingFox's line per
/// request and connection is dropped. At most one line in 10 s reaches the log, with the number
/// of lines left out since, so a hostile client cannot flood it.
///
/// - Realtime: never; the server's tasks.
final class PanelLog: Logging {
    let note: @Sendable (String) -> Void
    private let state = Mutex<(last: ContinuousClock.Instant?, dropped: Int)>((nil, 0))

    init(note: @escaping @Sendable (String) -> Void) { self.note = note }

    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) { pass(warning()) }
    func logError(_ error: @autoclosure () -> String) { pass(error()) }
    func logCritical(_ critical: @autoclosure () -> String) { pass(critical()) }

    private func pass(_ line: String) {
        let now = ContinuousClock.now
        let dropped: Int? = state.withLock { s in
            if let last = s.last, now - last < .seconds(10) {
                s.dropped += 1
                return nil
            }
            defer { s = (now, 0) }
            return s.dropped
        }
        guard let dropped else { return }
        note("web panel: \(line)" + (dropped > 0 ? " (\(dropped) more such lines left out)" : ""))
    }
}
