import Foundation

/// Lines about the backing track for the live client's log.
///
/// - Realtime: never; main thread.
enum BackingText {
    /// SIGUSR2: pauses or resumes the track and says which.
    static func toggle(_ track: BackingTrack?) -> String {
        guard let track else { return "SIGUSR2: no backing track (give --backing FILE)" }
        let playing = track.togglePlaying()
        return String(
            format: "SIGUSR2: backing track %@ at %.1f s", playing ? "playing" : "paused", track.secondsPlayed)
    }

    /// The exit summary line: what played, underruns, the reader's CPU. Call after `stop`.
    static func summary(_ track: BackingTrack) -> String {
        String(
            format: "backing track %@: %.1f s played, %d frames underrun, reader CPU %.2f s",
            track.path, track.secondsPlayed, track.underruns, track.cpuSeconds)
    }
}
