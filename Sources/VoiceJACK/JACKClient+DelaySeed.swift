import CJack

extension JACKClient {
    /// The speaker-to-mic delay JACK's latencies predict, in samples: the playback latency from
    /// `speaker_out_L` to the loudspeaker plus the capture latency from the microphone to
    /// `mic_in`. Nil when `speaker_out_L` feeds nothing (the far end then plays elsewhere and
    /// its path is unknown; the estimator finds it from the signals).
    ///
    /// - Realtime: never. Main thread.
    public func portLatencyDelay() -> Int? {
        let ports = context.pointee.ports
        guard jack_port_connected(ports.speakerLeft) > 0 else { return nil }
        var playback = jack_latency_range_t()
        var capture = jack_latency_range_t()
        jack_port_get_latency_range(ports.speakerLeft, JackPlaybackLatency, &playback)
        jack_port_get_latency_range(ports.mic, JackCaptureLatency, &capture)
        // The minimum: the earliest the echo can arrive. The margin keeps the reference ahead.
        return Int(playback.min) + Int(capture.min)
    }

    /// Posts `portLatencyDelay()` to the engine as its delay seed when it changed (connections
    /// made or latencies recomputed). Returns the seed when one was posted, for the log.
    ///
    /// - Realtime: never. Main thread; cheap enough for every status tick.
    public func seedDelayFromPortLatencies() -> Int? {
        guard configuration.echoCancellation, configuration.delayMode == .auto,
            let delay = portLatencyDelay()
        else { return nil }
        return engine.withLock { owned in
            guard owned.postedSeed != delay || owned.seededEngine != ObjectIdentifier(owned.engine) else { return nil }
            owned.postedSeed = delay
            owned.seededEngine = ObjectIdentifier(owned.engine)
            owned.engine.seedReferenceDelay(samples: delay)
            return delay
        }
    }
}
