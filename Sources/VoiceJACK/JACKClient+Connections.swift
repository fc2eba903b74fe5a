import CJack
import Glibc

extension JACKClient {
    /// Connects mic_in to the first physical capture port and speaker_out_L/R to the first two
    /// physical playback ports. voice_out and the monitor are never connected to the speakers
    /// (that would feed the voice back into the room). Returns one note per connection made or
    /// missed; a missing or refused connection is not an error.
    ///
    /// - Realtime: never. Main thread, after `activate()`.
    public func autoConnect() -> [String] {
        var notes: [String] = []
        let own = { (port: String) in "\(self.clientName):\(port)" }
        // A physical capture port is an output from the graph's point of view, a playback port an input.
        let capture = physicalPorts(JackPortIsOutput)
        let playback = physicalPorts(JackPortIsInput)
        if let first = capture.first {
            notes.append(connect(first, own("mic_in")))
        } else {
            notes.append("no physical capture port: mic_in left unconnected")
        }
        for (index, port) in ["speaker_out_L", "speaker_out_R"].enumerated() {
            if index < playback.count {
                notes.append(connect(own(port), playback[index]))
            } else {
                notes.append("no physical playback port \(index + 1): \(port) left unconnected")
            }
        }
        return notes
    }

    /// Full names of the physical audio ports with `direction` (JackPortIsInput/Output), in the
    /// server's order.
    private func physicalPorts(_ direction: JackPortFlags) -> [String] {
        let flags = UInt(direction.rawValue | JackPortIsPhysical.rawValue)
        guard let list = jack_get_ports(client, nil, JACK_DEFAULT_AUDIO_TYPE, flags) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let name = list[i] {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }

    /// Connects `source` to `destination`; returns what happened, for the log.
    private func connect(_ source: String, _ destination: String) -> String {
        let result = jack_connect(client, source, destination)
        // EEXIST: already connected (e.g. by a session manager), which is what we wanted.
        if result == 0 || result == EEXIST { return "connected \(source) -> \(destination)" }
        return "could not connect \(source) -> \(destination) (error \(result))"
    }
}
