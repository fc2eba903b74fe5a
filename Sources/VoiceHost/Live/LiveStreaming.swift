import Foundation
import VoiceControl
import VoiceCycle
import VoiceRecorder
import VoiceStream

/// The live session's Icecast stream: checked before the client opens, fed a tap exactly as a
/// recording is (`LiveRecorder.reroute`), started and stopped by `--control`, summarised at exit.
///
/// A stream that drops reconnects on its own thread; one that stops (refused credentials, an
/// encoder error) says so, and processing and recording go on. The password never appears in
/// anything this prints (`StreamTarget.description` is redacted).
///
/// - Realtime: never; main thread.
final class LiveStreaming {
    let target: StreamTarget
    let tap: Tap
    private var stream: LiveStream?
    /// A line per finished stream, for the exit summary.
    private(set) var finishedLines: [String] = []

    /// Resolves the settings and connects once (bad settings 64, unreachable 69, refused
    /// credentials 77), before any JACK client exists.
    init(settings: StreamSettings, tap: Tap) throws(HostError) {
        do {
            target = try settings.resolve()
            try LiveStream.check(target, sampleRate: 48_000)
        } catch {
            throw HostError(streaming: error)
        }
        self.tap = tap
    }

    /// True while a stream runs (connecting, live or reconnecting).
    var isStreaming: Bool { stream != nil }

    /// Starts streaming the tap at `sampleRate`; returns the log line.
    func start(_ host: CycleHost, recorder: LiveRecorder) throws(HostError) -> String {
        guard stream == nil else { return "already streaming to \(target)" }
        let started: LiveStream
        do {
            started = try LiveStream.start(target, sampleRate: host.sampleRate, channels: tap.channels)
        } catch {
            throw HostError(streaming: error)
        }
        guard recorder.reroute(host, extra: recorder.extraRoutes + [TapRoute(tap: tap, input: started.input)]) else {
            started.finishProducer()
            _ = started.waitUntilFinished()
            throw HostError(.io, "the process thread did not take the stream (is it stuck?); not streaming")
        }
        stream = started
        return "streaming \(tap.rawValue) to \(target)"
    }

    /// Stops the stream (its end is sent) and returns the summary line. With `force`, the process
    /// thread is known to be gone, so nothing needs taking from it.
    func stop(_ host: CycleHost, recorder: LiveRecorder, force: Bool = false) -> String? {
        guard let stream else { return nil }
        if !recorder.reroute(host, extra: []) && !force {
            return "could not take the stream from the process thread (is it stuck?); it ends at exit"
        }
        stream.finishProducer()
        let status = stream.waitUntilFinished()
        self.stream = nil
        let line = "streamed \(tap.rawValue) to \(target): " + status.text
        finishedLines.append(line)
        return line
    }

    /// The status-line part (`stream live 64 kb/s, on air 00:01:02`), nil when not streaming.
    var statusText: String? { stream.map { $0.status.text } }

    /// The running stream's state and counters, nil when not streaming.
    var status: StreamStatus? { stream?.status }

    /// The stream's figures for the panel's card; `off` while configured but not running.
    var figures: LiveSnapshot.StreamFigures {
        guard let status = stream?.status else { return LiveSnapshot.StreamFigures(state: "off") }
        var reason = ""
        switch status.state {
        case .reconnecting(_, _, let why), .stopped(let why): reason = why
        case .connecting, .live: break
        }
        return LiveSnapshot.StreamFigures(
            state: status.state.word, secondsOnAir: status.secondsOnAir, secondsLost: status.secondsLost,
            reconnects: status.reconnects, reason: reason)
    }

    /// Lines about state changes since the last call (dropped, reconnecting, live, stopped).
    func takeMessages() -> [String] { stream?.takeMessages() ?? [] }
}
