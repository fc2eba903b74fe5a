import Foundation
import Glibc

/// A signal taken by `SignalWaiter`, with whether a user (kill, a shell) or the kernel sent it.
struct TakenSignal: Equatable {
    let number: Int32
    /// True when the kernel raised it, e.g. SIGHUP because the controlling terminal hung up
    /// (`si_code` SI_KERNEL); false for `kill`/`sigqueue` from a process.
    let fromKernel: Bool
}

/// Waits for signals on the main thread with sigtimedwait, instead of doing work in a signal
/// handler.
///
/// Create it before any other thread starts (before opening the JACK client): it blocks the
/// signals in the calling thread, and threads created later (JACK's) inherit the mask, so the
/// signals stay pending until `wait` takes them. It also ignores SIGPIPE: a standard output that
/// went away (a closed pipe, a dropped terminal) must fail the write, not kill voicerack.
///
/// - Realtime: never; main thread (and the forced-exit watcher).
struct SignalWaiter {
    private var set = sigset_t()

    /// Blocks `signals` (and resets them to their default action: a signal ignored by the parent
    /// process would otherwise be discarded instead of left pending).
    init(_ signals: [Int32]) {
        signal(SIGPIPE, SIG_IGN)
        sigemptyset(&set)
        for s in signals {
            signal(s, SIG_DFL)
            sigaddset(&set, s)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Returns the signal taken, or nil when `seconds` passed without one.
    func wait(seconds: Double) -> TakenSignal? {
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var chosen = set
        var info = siginfo_t()
        let s = sigtimedwait(&chosen, &info, &timeout)
        return s > 0 ? TakenSignal(number: s, fromKernel: info.si_code == 0x80) : nil
    }

    /// Starts a thread that exits the process with `code` when one of `signals` arrives again
    /// (the user pressing Ctrl-C twice while a stuck server delays the exit). Call after the
    /// files are finalised, so a forced exit loses nothing.
    static func exitOnNextSignal(_ signals: [Int32], code: Int32, message: String) {
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            for s in signals { sigaddset(&set, s) }
            var taken: Int32 = 0
            sigwait(&set, &taken)
            StatusOutput.writeOut("voicerack: \(message)\n")
            _exit(code)
        }
        thread.name = "voicerack forced exit"
        thread.start()
    }
}
