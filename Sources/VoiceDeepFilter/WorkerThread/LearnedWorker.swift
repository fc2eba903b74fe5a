import Foundation
import Glibc

/// The learned stage's worker thread: waits on `LearnedHops.wake`, runs every hop the process
/// thread queued through the model, in order, and hands each number back.
///
/// It asks for real-time scheduling (SCHED_FIFO, lowest priority, below JACK's process thread)
/// so that desktop load does not push it past its deadline, and keeps its normal priority if the
/// system refuses. It may take as long as it likes: the process thread never waits for it.
///
/// - Realtime: the thread's own; `start` and `stop` run on the main thread.
public final class LearnedWorker: @unchecked Sendable {
    private let hops: LearnedHops
    private let model: LearnedModel
    private let finished = DispatchSemaphore(value: 0)
    private var running = false

    /// A worker for `hops` running `model`; call `start`. - Realtime: never; main thread.
    public init(hops: LearnedHops, model: LearnedModel) {
        self.hops = hops
        self.model = model
    }

    /// Starts the thread. - Realtime: never; main thread.
    public func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [hops, model, finished] in
            Self.raisePriority()
            while true {
                while sem_wait(hops.wake) != 0 && errno == EINTR {}
                if hops.stopping.pointee.load(ordering: .acquiring) { break }
                while let n = hops.toWorker.consumer.pop() {
                    model.run(hops.input(n), hops.output(n))
                    _ = hops.fromWorker.producer.push(n)
                }
            }
            finished.signal()
        }
        thread.name = "voicerack learned suppressor"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Stops the thread and returns once it has left the model. - Realtime: never; main thread.
    public func stop() {
        guard running else { return }
        running = false
        hops.stopping.pointee.store(true, ordering: .releasing)
        sem_post(hops.wake)
        finished.wait()
    }

    deinit { stop() }

    private static func raisePriority() {
        var parameters = sched_param()
        parameters.sched_priority = sched_get_priority_min(SCHED_FIFO)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }
}
