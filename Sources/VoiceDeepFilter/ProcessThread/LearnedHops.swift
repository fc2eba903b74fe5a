import Glibc
import Synchronization
import VoiceRT

/// What the process thread and the learned stage's worker share: `slots` hop slots (an input and
/// an output hop each), a ring of hop numbers to the worker, a ring of finished hop numbers back,
/// the semaphore that wakes the worker and its stop flag.
///
/// Hop number `n` lives in slot `n % slots`. The process thread writes a slot's input only while
/// the slot is not out with the worker (`LearnedStage` keeps a busy flag per slot), the worker
/// writes its output before handing the number back, and the rings' release/acquire ordering
/// publishes the samples with the number.
///
/// - Realtime: the rings' ends and `sem_post` are wait-free; `init` and `deallocate` are not. A
///   copyable bundle of pointers; the owner (`LearnedSuppressor`) frees it once, after the worker
///   has stopped.
public struct LearnedHops: @unchecked Sendable {
    public let hop: Int
    public let slots: Int
    let inputs: UnsafeMutablePointer<Float>
    let outputs: UnsafeMutablePointer<Float>
    /// Hop numbers to run: process thread → worker.
    let toWorker: SPSCRing<Int>
    /// Hop numbers run: worker → process thread (at most `slots` at a time, so never full).
    let fromWorker: SPSCRing<Int>
    let wake: UnsafeMutablePointer<sem_t>
    let stopping: UnsafeMutablePointer<Atomic<Bool>>

    /// Slots for `slots` hops of `hop` samples. - Realtime: never (allocates).
    public init(hop: Int, slots: Int) {
        self.hop = hop
        self.slots = slots
        inputs = .zeroed(hop * slots)
        outputs = .zeroed(hop * slots)
        toWorker = SPSCRing(capacity: slots, empty: 0)
        fromWorker = SPSCRing(capacity: slots, empty: 0)
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        stopping = .allocate(capacity: 1)
        stopping.initialize(to: Atomic(false))
    }

    /// Frees everything. - Realtime: never; once, after the worker has stopped.
    public func deallocate() {
        inputs.deallocate()
        outputs.deallocate()
        toWorker.deallocate()
        fromWorker.deallocate()
        sem_destroy(wake)
        wake.deallocate()
        stopping.deinitialize(count: 1)
        stopping.deallocate()
    }

    /// Slot `n`'s input hop. - Realtime: safe.
    @inline(__always) @_noLocks
    func input(_ n: Int) -> UnsafeMutablePointer<Float> { inputs + (n % slots) * hop }

    /// Slot `n`'s output hop. - Realtime: safe.
    @inline(__always) @_noLocks
    func output(_ n: Int) -> UnsafeMutablePointer<Float> { outputs + (n % slots) * hop }

    /// Wakes the worker. - Realtime: safe.
    @inline(__always) @_noLocks
    func wakeWorker() {
        // Realtime: sem_post is async-signal-safe; it only wakes a waiter (a futex call), never
        // blocks (as the LV2 worker's WorkerChannel).
        _ = _unsafePerformance { sem_post(wake) }
    }
}
