import Synchronization

/// The backing track following the JACK transport (`run --backing-follows-transport`): it plays
/// only while the transport rolls, from the transport's frame, and a locate moves it.
///
/// A locate is a handshake over four atomics, so that neither side ever waits and the ring keeps
/// one producer and one consumer:
///
/// 1. the process thread (JACK's sync callback, `sync(toFrame:)`) asks for frame T
///    (`seekTarget`) and answers "not ready";
/// 2. the reader thread stops writing, seeks the file to T and says so (`seekAccepted`);
/// 3. the process thread, at its next sync call, throws away what the ring holds (all from before
///    T) and says so (`seekDrained`);
/// 4. the reader fills the ring from T and says so (`seekServed`); the next sync call answers
///    "ready", and JACK starts rolling once every slow-sync client is ready.
///
/// Meanwhile, and whenever the transport is stopped, `play` outputs silence without touching the
/// ring, and its level glide stands still: a roll starts and stops without a fade, so the track
/// stays sample-aligned with the transport.
///
/// - Realtime: `sync` and the playing side are safe (process thread); the reader side is in
///   `BackingTrack.followSeek` (reader thread); `followsTransport` is set before the driver starts.
extension BackingSource {
    /// Answers JACK's sync callback for transport frame `frame` (engine rate): true once the ring
    /// holds the track from there. - Realtime: safe; process thread only.
    @_noLocks
    public func sync(toFrame frame: Int) -> Bool {
        let target = max(0, frame)
        if seekTarget.load(ordering: .relaxed) != target {
            // Release: the reader sees the request after the old one's state.
            seekTarget.store(target, ordering: .releasing)
            return false
        }
        if seekServed.load(ordering: .acquiring) == target { return true }
        // Acquire: once accepted, the reader writes nothing more until we drained.
        if seekAccepted.load(ordering: .acquiring) == target, seekDrained.load(ordering: .relaxed) != target {
            ring.consumer.discardAll()
            seekDrained.store(target, ordering: .releasing)
        }
        return false
    }

    /// True while a locate is being served (the ring does not hold the transport's frame yet).
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func seeking() -> Bool {
        let target = seekTarget.load(ordering: .relaxed)
        return target >= 0 && seekServed.load(ordering: .acquiring) != target
    }
}
