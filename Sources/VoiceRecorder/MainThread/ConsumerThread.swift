import Foundation

/// A block consumer's own thread (a recording's disk writer, a stream's sender, the live
/// loudness meter): named when its owner is made, started once with its work (which may then
/// use the whole owner), and waited for once that work has returned.
///
/// The consumer's work returns when the producer is done (`RecorderInput.finish`, or its own
/// stop request); `wait` then joins it, so what the work wrote is visible to the waiting thread.
///
/// - Realtime: never; the owner starts and waits for it on the main thread (or the thread that
///   owns the consumer), the work runs on the new thread.
public final class ConsumerThread: @unchecked Sendable {
    private let name: String
    private let finished = DispatchSemaphore(value: 0)

    /// A thread to be named `name` (as the system shows it), not started yet.
    public init(name: String) { self.name = name }

    /// Starts the thread running `work` once. Call it once.
    public func start(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            work()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Blocks until the work has returned. Call it once, after `start`.
    public func wait() { finished.wait() }
}
