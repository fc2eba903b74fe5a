import Foundation
import VoiceControl

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

    /// `backing play|pause|toggle` from a surface: what the track does now, or that there is none.
    static func apply(_ action: LiveCommand.BackingAction, to track: BackingTrack?) -> LiveReply {
        guard let track else { return .failure("no backing track (give --backing FILE)") }
        switch action {
        case .toggle: _ = track.togglePlaying()
        case .play: track.source.pointee.setPlaying(true)
        case .pause: track.source.pointee.setPlaying(false)
        }
        let playing = track.source.pointee.isPlaying
        return LiveReply(
            lines: [String(format: "backing track %@ at %.1f s", playing ? "playing" : "paused", track.secondsPlayed)])
    }

    /// The exit summary line: what played, underruns, the reader's CPU. Call after `stop`.
    static func summary(_ track: BackingTrack) -> String {
        String(
            format: "backing track %@: %.1f s played, %d frames underrun, reader CPU %.2f s",
            track.path, track.secondsPlayed, track.underruns, track.cpuSeconds)
    }
}
