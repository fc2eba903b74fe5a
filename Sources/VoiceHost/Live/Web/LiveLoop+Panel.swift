import Foundation
import VoiceCycle
import VoiceEngine
import VoiceJACK
import VoicePresets
import VoiceRT
import VoiceRecorder
import VoiceWeb

extension LiveLoop {
    /// Starts the web panel (`--web`) and prints the address to open, with its token; warns when
    /// it listens beyond this machine. - Realtime: never; main thread.
    func startPanel(at address: PanelAddress) throws(HostError) -> (PanelServer, LivePanel) {
        let panel = LivePanel(setup: panelSetup())
        let server: PanelServer
        do {
            server = try PanelServer(address: address, backend: panel)
            try server.start()
        } catch {
            throw HostError(.unavailable, error.description)
        }
        if !address.isLoopback {
            out.log(
                "warning: the web panel listens on \(address.host), reachable from other machines; anyone with the token can steer this session",
                level: .warning)
        }
        // The token is the panel's key: it goes to the terminal only (not to log files' status lines).
        out.log("web panel: open \(server.url)")
        return (server, panel)
    }

    /// Runs the panel's waiting requests, then publishes the figures (and, after a request, the
    /// setup) the pages get next. - Realtime: never; main thread.
    func tickPanel(_ panel: LivePanel) {
        var handled = false
        panel.drain { request in
            handled = true
            let reply = answer(request)
            for line in reply.lines { out.log("web: " + line) }
            return reply
        }
        publishPanel(panel, status: host.status(), setupChanged: handled)
    }

    /// The figures and (after a change) the setup for the panel. - Main thread.
    func publishPanel(_ panel: LivePanel, status: CycleStatus, setupChanged: Bool) {
        let driverStatus = driver.status()
        var m = PanelMeters()
        let h = status.health
        m.time = ProcessInfo.processInfo.systemUptime - sessionStarted
        m.micDB = Double(Decibels.fromAmplitude(h.micLevel))
        m.micPeakDB = Double(Decibels.fromAmplitude(h.micPeak))
        m.farDB = Double(Decibels.fromAmplitude(h.farLevel))
        m.voiceDB = Double(Decibels.fromAmplitude(h.outputLevel))
        m.voicePeakDB = Double(Decibels.fromAmplitude(h.outputPeak))
        m.micClips = h.clippedInputSamples
        m.voiceClips = h.clippedOutputSamples
        let canceller = host.liveConfiguration.echoCancellation
        if h.echoReturnLossEnhancement > 0 { m.echoRemovalDB = max(0, Decibels.fromPower(Double(h.echoReturnLossEnhancement))) }
        m.echoVerdict = Self.verdict(cancelling: canceller, farActive: h.farActive, removedDB: m.echoRemovalDB)
        if h.estimatedDelay >= 0 { m.delayMS = Double(h.estimatedDelay) * 1000 / Double(status.sampleRate) }
        if h.clockDriftPPM.isFinite { m.driftPPM = Double(h.clockDriftPPM) }
        m.voiceActive = h.voiceActive
        m.doubleTalk = h.voiceActive && h.farActive
        m.levellerGainDB = Double(Decibels.fromAmplitude(h.levellerGain))
        m.dspLoadPercent = Double(driverStatus.cpuLoad)
        m.xruns = driverStatus.xruns
        m.overruns = driverStatus.cycle.overruns
        m.worstCyclePercent = driverStatus.cycle.worstPercentOfPeriod
        m.monitorMuted = h.monitorMuted
        m.voiceMuted = status.voiceMuted
        m.recording = recorder.isRecording
        m.recordingSeconds = recordingStarted.map { ProcessInfo.processInfo.systemUptime - $0 } ?? 0
        m.recordingFiles = recorder.activePaths.map { URL(fileURLWithPath: $0).lastPathComponent }
        m.framesLost = recorder.framesLost
        if let backing {
            m.backing = backing.isPlaying ? "playing" : "paused"
            m.backingLevelDB = Double(host.liveConfiguration.backingLevelDB)
        }
        panel.publish(meters: m, setup: setupChanged ? panelSetup() : nil)
    }

    /// One word on the echo: removed at 20 dB or more, partly at 10, converging below.
    static func verdict(cancelling: Bool, farActive: Bool, removedDB: Double?) -> String {
        guard cancelling else { return "off" }
        guard let removedDB else { return farActive ? "converging" : "no far end yet" }
        return removedDB >= 20 ? "removed" : removedDB >= 10 ? "partly removed" : "converging"
    }

    /// The controls from the preset keys' descriptors, the presets and the taps.
    func panelSetup() -> PanelSetup {
        let controls = PresetEdit.descriptors(host.liveConfiguration).map { d in
            switch d.kind {
            case .number(let minimum, let maximum, let zero):
                PanelControl(
                    key: d.key, kind: .number, minimum: minimum, maximum: maximum, zero: zero, unit: d.unit,
                    value: d.value, live: d.live, help: d.help)
            case .boolean:
                PanelControl(key: d.key, kind: .toggle, value: d.value, live: d.live, help: d.help)
            case .choice(let choices):
                PanelControl(key: d.key, kind: .choice, choices: choices, value: d.value, live: d.live, help: d.help)
            case .text:
                PanelControl(key: d.key, kind: .text, value: d.value, live: d.live, help: d.help)
            }
        }
        return PanelSetup(
            controls: controls, presets: PresetLibrary.standard().names(), taps: Tap.allCases.map(\.rawValue),
            preset: loadedPreset)
    }
}
