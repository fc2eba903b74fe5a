import Foundation
import VoiceCycle
import VoicePipeWire

/// `--pipewire`: voicerack links itself between the call app's nodes and the sound card, and
/// keeps those links (PipeWire/PipeWireRouting.swift says which). A watch follows the graph with
/// `pw-dump --monitor` on a thread of its own (PipeWire/PipeWireWatch.swift); the main loop only
/// takes its latest graph, soon after it or the JACK ports changed and every few seconds, so
/// links come back after PipeWire or WirePlumber restarts and follow a new default device, and a
/// PipeWire that stopped answering never holds the main loop.
///
/// - Realtime: never; main thread.
extension LiveLoop {
    /// The start: starts the watch; the links follow once it has read the graph (or, when no
    /// PipeWire answers, plain jackd, voicerack auto-connects as without `--pipewire`).
    func startPipeWireLinks() {
        guard let settings = request.pipeWire else { return }
        out.log(
            "--pipewire: linking voice_out to '\(settings.micNode)', the monitor of '\(settings.callNode)' to far_in, speaker_out to the output device and the input device to mic_in; kept while voicerack runs"
        )
        pipeWire.watch = PipeWireWatch(remote: request.options.server)
        pipeWire.commands = DesktopCommands(remote: request.options.server)
    }

    /// Stops the watch (voicerack is stopping). - Realtime: never; main thread.
    func stopPipeWireWatch() {
        pipeWire.watch?.stop()
        pipeWire.watch = nil
    }

    /// Takes the latest graph and, when it is time to, makes the missing links and takes back
    /// links made to a device that is no longer the one to use; keeps the mutes equal.
    func keepPipeWireLinks() {
        guard let settings = request.pipeWire, !pipeWire.plainJACK, let watch = pipeWire.watch else { return }
        for note in pipeWire.commands?.take() ?? [] { out.log(note.text, level: note.warning ? .warning : .info) }
        let reading = watch.latest()
        guard pipeWire.started || answerStart(reading) else { return }
        if reading.run != pipeWire.muteRun {
            // PipeWire restarted: the microphone node of that name is a new one; its mute is no
            // change. The nodes may come back under their old ids: --make-default acts again.
            pipeWire.mute = SourceMuteSync()
            pipeWire.muteRun = reading.run
            pipeWire.defaultsMade = []
        }
        if let graph = reading.graph {
            keepMute(graph.node(named: settings.micNode))
            followWirePlumber(graph, run: reading.run)
        }
        noticeMutedTalk()
        let now = Date()
        if pipeWire.client != ObjectIdentifier(driver) {
            pipeWire.made = []
            pipeWire.declined = []
            pipeWire.client = ObjectIdentifier(driver)
            pipeWire.nextCheck = .distantPast
        }
        let registrations = driver.portRegistrations
        if registrations != pipeWire.seenRegistrations || reading.generation != pipeWire.seenGeneration {
            pipeWire.seenRegistrations = registrations
            pipeWire.seenGeneration = reading.generation
            pipeWire.nextCheck = min(pipeWire.nextCheck, now.addingTimeInterval(PipeWireLinking.settle))
        }
        guard now >= pipeWire.nextCheck else { return }
        pipeWire.nextCheck = now.addingTimeInterval(PipeWireLinking.interval)
        guard let graph = reading.graph else {
            if let error = reading.error, pipeWire.lastError != error.message {
                out.log("--pipewire: \(error.message); no links made", level: .warning)
            }
            pipeWire.lastError = reading.error?.message
            return
        }
        pipeWire.lastError = nil
        link(in: graph, settings)
        if settings.makeDefault { makeDefaults(in: graph, settings) }
    }

    /// The watch's first answer: on plain jackd (no PipeWire), auto-connects instead and stops
    /// the watch. False while it has not answered yet.
    private func answerStart(_ reading: PipeWireWatch.Reading) -> Bool {
        guard reading.answered else { return false }
        pipeWire.started = true
        if reading.graph == nil, let error = reading.error, error.noDaemon {
            out.log("--pipewire: \(error.message) (plain JACK?); auto-connecting instead", level: .warning)
            pipeWire.plainJACK = true
            stopPipeWireWatch()
            for note in driver.autoConnect() { out.log(note) }
            return false
        }
        return true
    }

    /// WirePlumber restarted alone (VoicePipeWire's WirePlumberRestart.swift): when it has not
    /// given voicerack's links their ports back in time, says what to do in the log and in one
    /// desktop notification.
    private func followWirePlumber(_ graph: PipeWireGraph, run: Int) {
        let step = pipeWire.wirePlumber.update(graph: graph, run: run, missing: pipeWire.lastMissing, now: Date())
        for (index, note) in step.notes.enumerated() {
            out.log(note, level: step.stalled && index == step.notes.count - 1 ? .warning : .info)
        }
        guard step.stalled, let commands = pipeWire.commands else { return }
        commands.notify(summary: WirePlumberRestart.noticeSummary, body: WirePlumberRestart.noticeBody) { problem in
            DesktopCommands.Note(text: "pipewire: no desktop notification of the stall: \(problem)", warning: true)
        }
    }

    /// Makes the links `graph` wants and takes back those it no longer wants. A link the user
    /// took away (in qpwgraph, with jack_disconnect) while both its ports stayed is left away
    /// until one of them goes and comes back (a restart) or the device changes: the user's
    /// patch wins over voicerack's.
    private func link(in graph: PipeWireGraph, _ settings: PipeWireSettings) {
        let (wanted, missing) = PipeWireRouting.links(in: graph, settings: settings, client: driver.clientName)
        noteLinksTakenAway(wanted: Set(wanted))
        for link in pipeWire.made.subtracting(wanted).subtracting(pipeWire.declined) {
            driver.unlink(link.source, link.destination)
            out.log("pipewire: unlinked \(link)")
        }
        pipeWire.made = []
        for link in wanted
        where driver.hasPort(link.source) && driver.hasPort(link.destination) && !pipeWire.declined.contains(link) {
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
    }

    /// Remembers the links voicerack made that are gone while both their ports stayed (the user
    /// took them away), unless ports came or went since the last look (a restart takes links
    /// with it); forgets those no longer wanted (the device changed) or whose ports went (they
    /// are made again when the ports come back).
    private func noteLinksTakenAway(wanted: Set<PipeWireLink>) {
        let exists = { (link: PipeWireLink) in self.driver.hasPort(link.source) && self.driver.hasPort(link.destination)
        }
        pipeWire.declined = pipeWire.declined.filter { wanted.contains($0) && exists($0) }
        let portsStayed = driver.portRegistrations == pipeWire.linkedRegistrations
        pipeWire.linkedRegistrations = driver.portRegistrations
        guard portsStayed else { return }
        for link in pipeWire.made where exists(link) && !driver.peers(of: link.source).contains(link.destination) {
            pipeWire.declined.insert(link)
            out.log(
                "pipewire: \(link) was taken away; left so until a port of it comes back or the device changes")
        }
    }

    /// Makes the call node the default sink and the microphone node the default source, once
    /// per node, as the user's own choice in the session manager: voicerack never takes the
    /// defaults unless asked.
    private func makeDefaults(in graph: PipeWireGraph, _ settings: PipeWireSettings) {
        guard graph.hasWirePlumber, let commands = pipeWire.commands else { return }
        for (name, sink) in [(settings.callNode, true), (settings.micNode, false)] {
            guard let node = graph.node(named: name), !pipeWire.defaultsMade.contains(node.id) else { continue }
            pipeWire.defaultsMade.insert(node.id)
            commands.makeDefault(name, sink: sink)
        }
    }
}
