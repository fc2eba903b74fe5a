import Glibc
import VoiceEngine

/// The one place the process thread may wait: while the driver freewheels (JACK's freewheel mode
/// renders a session as fast as the graph can), there is no real-time deadline to miss, so a
/// recording whose writer fell behind or a backing track whose reader did not keep up is waited
/// for, instead of losing frames (padded with silence) or playing an underrun. Rendering faster
/// than real time then never changes what is rendered.
///
/// JACK2 drops the process thread's real-time priority for freewheel and its freewheel driver
/// waits for the graph without a deadline, so sleeping here holds up nothing but the render.
/// `render` calls this only when its `CycleIO.freewheeling` is set, which the JACK driver sets
/// from the freewheel callback: JACK2 calls it before the first freewheel cycle and after the
/// last, so every real-time cycle keeps the rules (RealtimeSafetyTests run the cycle with full
/// recordings outside freewheel under RealtimeSanitizer, which aborts on any sleep).
///
/// - Realtime: NOT real-time safe (sleeps). Process thread, in freewheel only.
extension CycleState {
    /// Sleeps until every recording has room for `frames` frames and the backing track has them
    /// read ahead, polling every 0.5 ms (the writer threads poll their rings every 5 ms), for at
    /// most 5 s: a consumer stuck that long (a hung disk) is given up on, and the cycle drops as
    /// it would in real time (counted in `freewheelWaitsAbandoned`); that is well under JACK2's
    /// 10 s freewheel driver timeout. Returns false when it gave up (`render` then stops waiting
    /// for the rest of the freewheel run). Checked by @_noLocks like the rest of the cycle, except
    /// its sleep. - Realtime: NOT safe (sleeps; freewheel only).
    @_noLocks
    func waitForConsumers(frames: Int) -> Bool {
        var start = -1
        while !consumersReady(frames) {
            let now = Self.monotonicNanoseconds()
            if start < 0 { start = now }
            guard now &- start < 5_000_000_000 else {  // ns
                freewheelWaitsAbandoned.add(1, ordering: .relaxed)
                return false
            }
            // NOT real time: the one sleep of the process thread, reached only in freewheel.
            _ = _unsafePerformance { usleep(500) }  // µs
        }
        return true
    }

    /// The monotonic clock in nanoseconds (the vDSO's: no system call). - Realtime: safe.
    @inline(__always) @_noLocks
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &now) }
        return now.tv_sec &* 1_000_000_000 &+ now.tv_nsec
    }

    /// True when nothing needs waiting for: the backing has `frames` ahead (or does not play)
    /// and every recording has room. While the control side swaps the recordings (the slot is
    /// empty), there is nothing to check. - Realtime: safe.
    @_noLocks
    func consumersReady(_ frames: Int) -> Bool {
        if let backing, !backing.pointee.hasAhead(frames) { return false }
        // Acquire/release as in `routeTaps`: hold the set's token only while looking at it.
        guard let token = routeSlot.exchange(nil, ordering: .acquiring) else { return true }
        let ready = token.assumingMemoryBound(to: TapRoutes.self).pointee.haveRoom(for: frames)
        routeSlot.store(token, ordering: .releasing)
        return ready
    }
}
