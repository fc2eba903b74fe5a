import Foundation
import VoiceControl
import VoiceCycle
import VoiceRT

/// The live client's status line (main thread only).
enum StatusText {
    /// One line: levels, delay estimate, ERLE, voice activity (`none` where nothing detects
    /// it: the null canceller counts every frame as voice), xruns, DSP load, the worst
    /// callback time (% of the period) and, while recording, `recording` (files, lost frames).
    static func line(_ s: CycleStatus, _ d: DriverStatus, recording: String? = nil) -> String {
        let h = s.health
        let delay =
            h.estimatedDelay >= 0 ? HealthText.milliseconds(h.estimatedDelay, rate: s.sampleRate) : "--"
        let erle =
            h.echoReturnLossEnhancement <= 0
            ? "--"
            : {
                let db = Decibels.fromPower(Double(h.echoReturnLossEnhancement))
                return String(format: "%.1f dB", db) + " (\(EchoVerdict(removedDB: db).rawValue))"
            }()
        var parts = [
            "mic \(short(h.micLevel))", "far \(short(h.farLevel))", "voice \(short(h.outputLevel))",
            "delay \(delay)", "ERLE \(erle)", "VAD \(!s.detectsVoice ? "none" : h.voiceActive ? "voice" : "-")",
            "xruns \(d.xruns)", String(format: "DSP %.1f%%", d.cpuLoad),
            String(format: "worst %.0f%%", d.cycle.worstPercentOfPeriod),
        ]
        // From 20 ppm, as HealthText.drift says "none" below it.
        if h.driftCompensation != .off || (h.clockDriftPPM.isFinite && abs(h.clockDriftPPM) >= 20) {
            parts.append("drift " + HealthText.drift(h.clockDriftPPM, h.driftCompensation))
        }
        if h.speakerDrive > 0 { parts.append("speaker clips (modelled)") }
        if h.learnedHops + h.learnedMissedHops > 0 { parts.append("DFN missed \(h.learnedMissedHops)") }
        if d.cycle.overruns > 0 { parts.append("over \(d.cycle.overruns) (by its work \(d.cycle.workOverruns))") }
        if s.voiceMuted { parts.append(s.talkingWhileMuted ? "VOICE MUTED (you are talking)" : "VOICE MUTED") }
        if h.monitorMuted { parts.append("MONITOR MUTED (howl \(HealthText.frequency(h.feedbackFrequency)))") }
        if let recording { parts.append(recording) }
        if s.silentCycles > 0 { parts.append("silent cycles \(s.silentCycles)") }
        if let problem = s.problem { parts.append("problem: \(problem)") }
        return parts.joined(separator: "  ")
    }

    /// The log line when the feedback guard muted the monitor.
    static func feedback(_ h: HealthFigures) -> String {
        "monitor muted: feedback howl at \(HealthText.frequency(h.feedbackFrequency)); use headphones or lower monitor.master_db, then unmute (SIGHUP, or `unmute` with --control)"
    }

    /// The line printed once the client runs.
    static func started(_ s: CycleStatus, client: String, server: String, preset: String) -> String {
        "running as JACK client '\(client)' on server '\(server)': \(s.sampleRate) Hz, \(s.blockSize)-sample periods, preset \(preset), voice latency \(s.latency) samples (\(HealthText.milliseconds(s.latency, rate: s.sampleRate)))"
    }

    /// A level in dBFS, short.
    private static func short(_ linear: Float) -> String {
        linear <= 1e-6 ? "-inf" : String(format: "%.1f", Decibels.fromAmplitude(linear))
    }
}
