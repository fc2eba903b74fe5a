import CLilv
import Foundation
import Glibc

/// The thread that runs a plugin's scheduled work (LV2 worker extension) while it runs live.
///
/// It sleeps on the channel's semaphore, runs `work` for each request (work may allocate, read
/// files, take as long as it needs: it is off the process thread by design) and stops when asked.
///
/// - Realtime: never.
final class LV2WorkerThread {
    private let channel: UnsafeMutablePointer<WorkerChannel>
    private let finished = DispatchSemaphore(value: 0)

    init(channel: UnsafeMutablePointer<WorkerChannel>) {
        self.channel = channel
        // The pointer crosses to the worker thread by design: the channel's queues are the
        // thread-safe part, and the channel outlives the thread (`stop` joins it first).
        nonisolated(unsafe) let channel = channel
        let thread = Thread { [finished] in
            while true {
                while sem_wait(channel.pointee.wake) != 0 {}
                if channel.pointee.stopping.load(ordering: .acquiring) { break }
                while let request = channel.pointee.requests.peek() {
                    _ = performWork(channel, request.size, request.bytes)
                    channel.pointee.requests.release(request.slot)
                }
            }
            finished.signal()
        }
        thread.name = "voicerack-lv2-worker"
        thread.start()
    }

    /// Stops the thread and waits for it; the channel is then free to go.
    func stop() {
        channel.pointee.stopping.store(true, ordering: .releasing)
        sem_post(channel.pointee.wake)
        finished.wait()
    }
}
