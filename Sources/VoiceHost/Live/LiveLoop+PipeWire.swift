import Foundation
import VoiceCycle

/// `--pipewire`: voicerack links itself between the call app's nodes and the sound card, and
/// keeps those links (PipeWire/PipeWireRouting.swift says which). The graph is read again soon
/// after ports come or go (JACK's port-registration callback only counts them; the reading and
/// linking happen here, on the main thread) and every few seconds, so links come back after
/// PipeWire or WirePlumber restarts and follow a new default device.
///
/// - Realtime: never; main thread.
extension LiveLoop {
    /// The start: links as `keepPipeWireLinks` does, or, when no PipeWire graph can be read
    /// (plain jackd), auto-connects as without `--pipewire`.
    func startPipeWireLinks() {
        guard let settings = request.pipeWire else { return }
        out.log(
            "--pipewire: linking voice_out to '\(settings.micNode)', the monitor of '\(settings.callNode)' to far_in, speaker_out to the output device and the input device to mic_in; kept while voicerack runs"
        )
        if case .failure(let error) = PipeWireDump.read(remote: request.options.server), error.noDaemon {
            out.log("--pipewire: \(error.message) (plain JACK?); auto-connecting instead", level: .warning)
            pipeWire.plainJACK = true
            for note in driver.autoConnect() { out.log(note) }
            return
        }
        keepPipeWireLinks()
    }

    /// Reads the graph and makes the missing links when it is time to; takes back links made
    /// to a device that is no longer the one to use.
    func keepPipeWireLinks() {
        guard let settings = request.pipeWire, !pipeWire.plainJACK else { return }
        let now = Date()
        if pipeWire.client != ObjectIdentifier(driver) {
            pipeWire = PipeWireLinking()
            pipeWire.client = ObjectIdentifier(driver)
        }
        let registrations = driver.portRegistrations
        if registrations != pipeWire.seenRegistrations {
            pipeWire.seenRegistrations = registrations
            pipeWire.nextCheck = min(pipeWire.nextCheck, now.addingTimeInterval(PipeWireLinking.settle))
        }
        guard now >= pipeWire.nextCheck else { return }
        pipeWire.nextCheck = now.addingTimeInterval(PipeWireLinking.interval)
        let graph: PipeWireGraph
        switch PipeWireDump.read(remote: request.options.server) {
        case .success(let read):
            graph = read
            pipeWire.lastError = nil
        case .failure(let error):
            if pipeWire.lastError != error.message {
                out.log("--pipewire: \(error.message); no links made", level: .warning)
            }
            pipeWire.lastError = error.message
            return
        }
        let (wanted, missing) = PipeWireRouting.links(in: graph, settings: settings, client: driver.clientName)
        for link in pipeWire.made.subtracting(wanted) {
            driver.unlink(link.source, link.destination)
            out.log("pipewire: unlinked \(link)")
        }
        pipeWire.made = []
        for link in wanted where driver.hasPort(link.source) && driver.hasPort(link.destination) {
            if driver.peers(of: link.source).contains(link.destination) {
                pipeWire.made.insert(link)
            } else if driver.link(link.source, link.destination) == 0 {
                pipeWire.made.insert(link)
                out.log("pipewire: linked \(link)")
            } else {
                out.log("pipewire: could not link \(link)", level: .warning)
            }
        }
        if missing != pipeWire.lastMissing {
            for note in missing { out.log("pipewire: \(note) yet; linking it when it appears") }
            pipeWire.lastMissing = missing
        }
        if settings.makeDefault { makeDefaults(in: graph, settings) }
    }

    /// Makes the call node the default sink and the microphone node the default source, once
    /// per node, as the user's own choice in the session manager: voicerack never takes the
    /// defaults unless asked.
    private func makeDefaults(in graph: PipeWireGraph, _ settings: PipeWireSettings) {
        guard graph.hasWirePlumber else { return }
        for (name, sink) in [(settings.callNode, true), (settings.micNode, false)] {
            guard let node = graph.node(named: name), !pipeWire.defaultsMade.contains(node.id) else { continue }
            if PipeWireDefaults.set(name, sink: sink, remote: request.options.server) {
                pipeWire.defaultsMade.insert(node.id)
                out.log("pipewire: '\(name)' is now the default \(sink ? "sink" : "source") (--make-default)")
            } else {
                out.log("pipewire: could not make '\(name)' the default \(sink ? "sink" : "source")", level: .warning)
            }
        }
    }
}
