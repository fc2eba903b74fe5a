import CJack
import Glibc
import VoiceCycle

// The one place where the process thread calls into C (libjack, the C library's clock). The
// compiler's @_noLocks check cannot see into C, so each call is wrapped in _unsafePerformance
// with the reason it is safe.

/// The audio buffer of `port` for this cycle: `frames` samples, 32-bit float.
///
/// Returns nil only if JACK has no buffer for the port (it always has one for a registered
/// audio port of an active client).
///
/// - Realtime: safe; call only from the process callback, with the cycle's `frames`.
@inline(__always) @_noLocks
func audioBuffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutablePointer<Float>? {
    // Realtime: jack_port_get_buffer returns a pointer into memory the server mapped before
    // activation (the port's shared-memory buffer, or the connected port's for a single
    // connection); it does no allocation, locking or system call.
    let raw = _unsafePerformance { jack_port_get_buffer(port, frames) }
    return raw?.assumingMemoryBound(to: Float.self)
}

/// The monotonic clock in nanoseconds, for timing the process callback.
///
/// - Realtime: safe.
@inline(__always) @_noLocks
func monotonicNanoseconds() -> Int {
    var now = timespec()
    // Realtime: on Linux clock_gettime(CLOCK_MONOTONIC) is served by the vDSO: it reads the
    // kernel's shared time page in user space, with no system call, allocation or lock.
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &now) }
    return now.tv_sec &* 1_000_000_000 &+ now.tv_nsec
}

/// CPU time the calling thread has used, in nanoseconds: the process callback's own work, without
/// the time the thread was held up (preempted, interrupted, or its virtual CPU not running).
///
/// - Realtime: safe.
@inline(__always) @_noLocks
func threadCPUNanoseconds() -> Int {
    var now = timespec()
    // Realtime: CLOCK_THREAD_CPUTIME_ID is not in the vDSO, so this is a system call, but one that
    // only reads the scheduler's runtime counter of the calling thread: it never blocks, allocates
    // or takes a lock a lower-priority thread could hold (twice per cycle).
    _ = _unsafePerformance { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) }
    return now.tv_sec &* 1_000_000_000 &+ now.tv_nsec
}

/// The transport's state and frame at this cycle's first sample.
///
/// - Realtime: safe; process callback only (then the position is the cycle's first frame and
///   the state holds for the whole cycle).
@inline(__always) @_noLocks
func transportPosition(_ client: OpaquePointer) -> TransportPosition {
    var position = jack_position_t()
    // Realtime: jack_transport_query is documented as real-time safe: JACK2 copies the current
    // position out of the engine's shared memory, retrying while the server swaps its double
    // buffer (no lock, allocation or system call).
    let state = _unsafePerformance { jack_transport_query(client, &position) }
    return TransportPosition(rolling: state == JackTransportRolling, frame: Int(position.frame))
}

/// The frame time at the start of this process cycle (JACK's running frame counter).
///
/// - Realtime: safe; process callback only.
@inline(__always) @_noLocks
func cycleStartFrame(_ client: OpaquePointer) -> jack_nframes_t {
    // Realtime: jack_last_frame_time reads the cycle's timing from the client's shared-memory
    // control block (it is documented for use in the process callback); no lock or system call.
    _unsafePerformance { jack_last_frame_time(client) }
}
