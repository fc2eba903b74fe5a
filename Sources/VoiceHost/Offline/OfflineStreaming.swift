import Foundation
import Glibc
import VoiceCycle
import VoiceRecorder
import VoiceStream

/// `process --stream`: a file's processed tap sent to an Icecast mount in real time, to test a
/// mount with known audio.
///
/// The stream is fed like the output file (a `TapRoute` with the same window on the timeline),
/// and the offline driver is paced by the wall clock (`pace`): a block is rendered only when its
/// time has come, so the server gets audio at the rate a live run sends it. Before any audio is
/// rendered the stream is checked (bad settings 64, unreachable 69, refused 77) and its
/// connection made, so the file's first second goes on air, not into a connect.
///
/// - Realtime: never (the offline run's thread).
final class OfflineStreaming {
    let target: StreamTarget
    let tap: Tap
    private let stream: LiveStream
    private let sampleRate: Int
    /// Frames handed to the cycle so far, and the monotonic time the first one was due.
    private var framesPaced = 0
    private var started: Double?

    init(
        settings: StreamSettings, tap: Tap, sampleRate: Int, options: StreamOptions = StreamOptions()
    )
        throws(HostError)
    {
        do {
            target = try settings.resolve()
            try LiveStream.check(target, sampleRate: sampleRate)
            stream = try LiveStream.start(target, sampleRate: sampleRate, channels: tap.channels, options: options)
        } catch {
            throw HostError(streaming: error)
        }
        self.tap = tap
        self.sampleRate = sampleRate
        try waitUntilLive(timeout: options.connectTimeout)
    }

    /// Waits for the sender's first connection; throws (69/77) when it fails or takes too long.
    private func waitUntilLive(timeout: Double) throws(HostError) {
        let deadline = Self.now() + timeout
        while true {
            let status = stream.status
            switch status.state {
            case .live: return
            case .stopped(let reason):
                abandon()
                throw HostError(streaming: status.error ?? .unreachable(server: target.server, detail: reason))
            case .connecting, .reconnecting:
                guard Self.now() < deadline else {
                    abandon()
                    throw HostError(
                        .unavailable, "--stream: \(target.server) did not take the stream within \(Int(timeout)) s")
                }
                usleep(5_000)
            }
        }
    }

    /// The cycle's route for the stream: `skip` frames dropped first (the tap's lag behind the
    /// mic, as for the output file), at most `limit` frames kept.
    func route(skip: Int, limit: Int?) -> TapRoute { TapRoute(tap: tap, input: stream.input, skip: skip, limit: limit) }

    /// Sleeps until the `frames` about to be rendered are due by the wall clock (monotonic):
    /// block k of n frames is rendered k·n/rate seconds after the first.
    func pace(frames: Int) {
        let now = Self.now()
        guard let started else {
            self.started = now
            framesPaced = frames
            return
        }
        let due = started + Double(framesPaced) / Double(sampleRate)
        if due > now { usleep(useconds_t((due - now) * 1e6)) }
        framesPaced += frames
    }

    /// Sends the end of the stream (bounded by the drain timeout) and closes; returns the final
    /// status. Call after the route was taken away from the cycle.
    func finish() -> StreamStatus {
        stream.finishProducer()
        return stream.waitUntilFinished()
    }

    /// Stops without waiting for anything useful (a failed run).
    func abandon() { _ = finish() }

    /// Lines about state changes since the last call (dropped, reconnecting, live, stopped).
    func takeMessages() -> [String] { stream.takeMessages() }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
