import Foundation
import VoiceEngine
import VoiceRT
import VoiceRecorder

extension JACKClient {
    /// Most recordings the process thread can feed at once.
    public static let maximumRecordings = TapRoutes.capacity

    /// Makes the process thread feed `recordings` from the next cycle on, instead of whatever it
    /// fed before; an empty list stops feeding.
    ///
    /// Returns true once the old set is out of the process thread's hands: its recordings then
    /// get no more `write` calls and the caller may finish them (`Recording.finishProducer()`).
    /// Returns false (and changes nothing) when the process thread kept the old set for about two
    /// seconds, which only happens if it is stuck. Works before activation and after
    /// deactivation too (nobody holds the token then).
    ///
    /// - Realtime: never. Main thread.
    public func route(_ recordings: [(tap: Tap, input: RecorderInput)]) -> Bool {
        precondition(recordings.count <= Self.maximumRecordings)
        let fresh = UnsafeMutablePointer<TapRoutes>.allocate(capacity: 1)
        let karaoke = (voice: Decibels.amplitude(configuration.karaokeVoiceDB), backing: Decibels.amplitude(configuration.karaokeBackingDB))
        fresh.initialize(to: TapRoutes(recordings, karaokeGains: karaoke))
        let expected = UnsafeMutableRawPointer(routes)
        for _ in 0..<4_000 {
            // Acquiring: the process thread's last cycle with the old set is complete before we
            // free it. Releasing: the new set's memory is visible to the process thread.
            if context.pointee.routeSlot.compareExchange(
                expected: expected, desired: UnsafeMutableRawPointer(fresh), ordering: .acquiringAndReleasing
            ).exchanged {
                routes.deinitialize(count: 1)
                routes.deallocate()
                routes = fresh
                return true
            }
            usleep(500)
        }
        fresh.deinitialize(count: 1)
        fresh.deallocate()
        return false
    }

    /// The process callback's timing since activation. Reads only the client's own atomics, so
    /// it stays valid after `close()`. - Realtime: never needed; any thread.
    public func cycleFigures() -> CycleFigures { context.pointee.timing.figures() }

    /// xruns JACK reported since activation; valid after `close()`. - Realtime: never; any thread.
    public var xrunCount: Int { context.pointee.xruns.load(ordering: .relaxed) }
}

extension JACKClient {
    /// Makes the process thread play `backing` into speaker_out_L/R (and so into the echo
    /// reference, the monitor and the karaoke tap). Call before `activate`; the caller keeps
    /// `backing` alive until the client is closed.
    ///
    /// - Realtime: never. Main thread, before activation.
    public func attachBacking(_ backing: UnsafeMutablePointer<BackingSource>) {
        context.pointee.backing = backing
    }
}
