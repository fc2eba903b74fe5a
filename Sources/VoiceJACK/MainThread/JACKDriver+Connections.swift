import CJack
import Glibc

extension JACKDriver {
    /// Connects mic_in to the first physical capture port and speaker_out_L/R to the first two
    /// physical playback ports, leaving alone every port that already has a connection (a
    /// patchbay or session manager got there first: adding a second source would sum two
    /// inputs). voice_out and the monitor are never connected to the speakers (that would feed
    /// the voice back into the room). Returns one note per connection made, kept or missed; a
    /// missing or refused connection is not an error.
    ///
    /// - Realtime: never. Main thread, after `start`.
    public func autoConnect() -> [String] {
        var notes: [String] = []
        let ports = context.pointee.ports
        let own = { (port: String) in "\(self.clientName):\(port)" }
        // A physical capture port is an output from the graph's point of view, a playback port an input.
        let capture = physicalPorts(JackPortIsOutput)
        let playback = physicalPorts(JackPortIsInput)
        if jack_port_connected(ports.mic) > 0 {
            notes.append("mic_in is already connected; auto-connect left it as it is")
        } else if let first = capture.first {
            notes.append(connect(first, own("mic_in")))
        } else {
            notes.append("no physical capture port: mic_in left unconnected")
        }
        for (index, (name, port)) in [("speaker_out_L", ports.speakerLeft), ("speaker_out_R", ports.speakerRight)]
            .enumerated()
        {
            if jack_port_connected(port) > 0 {
                notes.append("\(name) is already connected; auto-connect left it as it is")
            } else if index < playback.count {
                notes.append(connect(own(name), playback[index]))
            } else {
                notes.append("no physical playback port \(index + 1): \(name) left unconnected")
            }
        }
        return notes
    }

    /// Full names of the physical audio ports with `direction` (JackPortIsInput/Output), in the
    /// server's order.
    private func physicalPorts(_ direction: JackPortFlags) -> [String] {
        let flags = UInt(direction.rawValue | JackPortIsPhysical.rawValue)
        return Self.names(jack_get_ports(jackClient, nil, JACK_DEFAULT_AUDIO_TYPE, flags))
    }

    /// Connects `source` to `destination`; returns what happened, for the log.
    private func connect(_ source: String, _ destination: String) -> String {
        let result = jack_connect(jackClient, source, destination)
        // EEXIST: already connected (e.g. by a session manager), which is what we wanted.
        if result == 0 || result == EEXIST { return "connected \(source) -> \(destination)" }
        return "could not connect \(source) -> \(destination) (error \(result))"
    }

    /// The speaker-to-mic delay JACK's latencies predict, in samples: the playback latency from
    /// `speaker_out_L` to the loudspeaker plus the capture latency from the microphone to
    /// `mic_in`. Nil when `speaker_out_L` feeds nothing (the far end then plays elsewhere and
    /// its path is unknown; the estimator finds it from the signals).
    ///
    /// - Realtime: never. Main thread.
    public func echoPathLatency() -> Int? {
        let ports = context.pointee.ports
        guard jack_port_connected(ports.speakerLeft) > 0 else { return nil }
        var playback = jack_latency_range_t()
        var capture = jack_latency_range_t()
        jack_port_get_latency_range(ports.speakerLeft, JackPlaybackLatency, &playback)
        jack_port_get_latency_range(ports.mic, JackCaptureLatency, &capture)
        // The minimum: the earliest the echo can arrive. The margin keeps the reference ahead.
        return Int(playback.min) + Int(capture.min)
    }
}
