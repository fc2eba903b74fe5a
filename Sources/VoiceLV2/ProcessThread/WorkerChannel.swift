import CLilv
import Glibc
import Synchronization

/// What the worker extension's callbacks reach through their handle: the plugin's worker
/// interface and the two message queues. A plain struct allocated once per instance; its address
/// is the LV2_Worker_Schedule handle and the respond handle.
///
/// Threaded: `schedule_work` (process thread) pushes a request and posts the semaphore; the
/// worker thread runs `work`, whose `respond` pushes a response; the process thread delivers the
/// responses after each run (`deliverResponses`). Synchronous: `schedule_work` runs `work` at once
/// in the calling thread; responses are still delivered after the run, never inside it.
struct WorkerChannel: ~Copyable {
    var interface: UnsafePointer<LV2_Worker_Interface>?
    var handle: LV2_Handle?
    let synchronous: Bool
    let requests = MessageQueue(slots: 32, slotBytes: 4_096)
    let responses = MessageQueue(slots: 32, slotBytes: 4_096)
    /// Wakes the worker thread; sem_post neither blocks nor allocates.
    let wake: UnsafeMutablePointer<sem_t>
    let stopping = Atomic<Bool>(false)

    init(synchronous: Bool) {
        self.synchronous = synchronous
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
    }

    deinit {
        requests.deallocate()
        responses.deallocate()
        sem_destroy(wake)
        wake.deallocate()
    }

    /// The channel behind a schedule or respond handle (its address). - Realtime: safe.
    @_noLocks
    static func at(_ handle: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<WorkerChannel>? {
        handle?.assumingMemoryBound(to: WorkerChannel.self)
    }
}

/// LV2_Worker_Schedule.schedule_work. - Realtime: safe (called from the plugin's run()).
@_noLocks
func scheduleWork(
    _ handle: LV2_Worker_Schedule_Handle?, _ size: UInt32, _ data: UnsafeRawPointer?
) -> LV2_Worker_Status {
    guard let channel = WorkerChannel.at(handle) else { return LV2_WORKER_ERR_UNKNOWN }
    if channel.pointee.synchronous { return performWork(channel, size, data) }
    guard channel.pointee.requests.push(size, data) else { return LV2_WORKER_ERR_NO_SPACE }
    // Realtime: sem_post is async-signal-safe; it only wakes a waiter (a futex call), never blocks.
    _ = _unsafePerformance { sem_post(channel.pointee.wake) }
    return LV2_WORKER_SUCCESS
}

/// LV2_Worker_Respond_Function: queues the plugin's response for delivery after the next run.
/// - Realtime: safe (wait-free push); called on the worker thread, or in the caller's thread offline.
@_noLocks
func respondToWork(
    _ handle: LV2_Worker_Respond_Handle?, _ size: UInt32, _ data: UnsafeRawPointer?
) -> LV2_Worker_Status {
    guard let channel = WorkerChannel.at(handle) else { return LV2_WORKER_ERR_UNKNOWN }
    return channel.pointee.responses.push(size, data) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
}
