import Glibc

/// The signal that starts and stops the stream: SIGRTMIN+1.
///
/// SIGUSR1 (recording) and SIGUSR2 (the backing track) are taken. A real-time signal is the
/// next best "user" signal: nothing sends it by default, and its default action ends the process
/// as SIGUSR's does, so a voicerack without the handler is never silently toggled. glibc keeps
/// the first two real-time signals for its threads, so SIGRTMIN here is already past them (34 on
/// Linux); +1 leaves SIGRTMIN itself to other tools. `SignalWaiter` blocks it like the others.
///
/// - Realtime: never; main thread.
public enum StreamSignal {
    /// The signal number (35 with glibc on Linux).
    public static var number: Int32 { __libc_current_sigrtmin() + 1 }
    /// How messages name it.
    static let name = "SIGRTMIN+1"
    /// What a user types to send it.
    static let killCommand = "kill -s RTMIN+1 $(pidof voicerack)"
}
