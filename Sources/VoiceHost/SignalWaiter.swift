import Glibc

/// Waits for SIGINT/SIGTERM on the main thread with sigtimedwait, instead of doing work in a
/// signal handler.
///
/// Create it before any other thread starts (before opening the JACK client): it blocks the
/// signals in the calling thread, and threads created later (JACK's) inherit the mask, so the
/// signals stay pending until `wait` takes them.
///
/// - Realtime: never; main thread only.
struct SignalWaiter {
    private var set = sigset_t()

    /// Blocks `signals` (and resets them to their default action: a signal ignored by the parent
    /// process would otherwise be discarded instead of left pending).
    init(_ signals: [Int32]) {
        sigemptyset(&set)
        for s in signals {
            signal(s, SIG_DFL)
            sigaddset(&set, s)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Returns the signal taken, or nil when `seconds` passed without one.
    func wait(seconds: Double) -> Int32? {
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var chosen = set
        let s = sigtimedwait(&chosen, nil, &timeout)
        return s > 0 ? s : nil
    }
}
