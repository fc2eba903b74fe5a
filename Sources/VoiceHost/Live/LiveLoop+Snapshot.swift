import Foundation
import VoiceControl
import VoiceCycle
import VoiceRT

extension LiveLoop {
    /// Publishes the meters and state for the control surfaces (`ControlHub.snapshot`) and
    /// returns them (the terminal's status line reads the same figures).
    ///
    /// - Realtime: never; main thread.
    @discardableResult
    func publishSnapshot(_ s: CycleStatus, _ d: DriverStatus) -> LiveSnapshot {
        let h = s.health
        let now = ProcessInfo.processInfo.systemUptime
        var snapshot = LiveSnapshot()
        snapshot.time = now
        snapshot.mic = Self.meter(h.micLevel, h.micPeak)
        snapshot.far = Self.meter(h.farLevel, h.farPeak)
        snapshot.voice = Self.meter(h.outputLevel, h.outputPeak)
        snapshot.monitor = Self.meter(h.monitorLevel, h.monitorPeak)
        snapshot.units = s.units.map { unit, r in
            LiveSnapshot.UnitMeter(
                unit: unit, peak: Self.dBFS(r.peak),
                reductionDB: r.reductionDB.isNaN ? nil : Double(max(0, r.reductionDB)))
        }
        if h.echoReturnLossEnhancement > 0 {
            let db = Decibels.fromPower(Double(h.echoReturnLossEnhancement))
            snapshot.echoRemovalDB = db
            snapshot.echoVerdict = EchoVerdict(removedDB: db).advice
        }
        if h.estimatedDelay >= 0 { snapshot.delayMilliseconds = Double(h.estimatedDelay) * 1000 / Double(s.sampleRate) }
        snapshot.delayConfidence = Double(h.delayConfidence)
        snapshot.driftPPM = h.clockDriftPPM.isFinite ? Double(h.clockDriftPPM) : nil
        // The null canceller counts every frame as voice: no decision to show.
        snapshot.voiceDetected = s.detectsVoice
        snapshot.voiceActive = h.voiceActive && s.detectsVoice
        snapshot.farActive = h.farActive
        snapshot.doubleTalk = snapshot.voiceActive && h.farActive
        snapshot.voiceMuted = s.voiceMuted
        snapshot.talkingWhileMuted = s.talkingWhileMuted
        snapshot.mutedTalkEvents = s.mutedTalkEvents
        snapshot.monitorMuted = h.monitorMuted
        snapshot.levellerGainDB = h.levellerGain > 0 ? Double(Decibels.fromAmplitude(h.levellerGain)) : -.infinity
        if let figures = loudness?.figures {
            snapshot.loudness = LiveSnapshot.Loudness(
                momentary: figures.momentary, shortTerm: figures.shortTerm, integrated: figures.take.integrated,
                range: figures.take.range, truePeak: figures.take.truePeak)
        }
        snapshot.dspLoadPercent = Double(d.cpuLoad)
        snapshot.worstCyclePercent = d.cycle.worstPercentOfPeriod
        snapshot.xruns = d.xruns
        snapshot.overruns = d.cycle.overruns
        snapshot.framesNotRun = d.framesMissed
        snapshot.sampleRate = s.sampleRate
        snapshot.blockSize = s.blockSize
        snapshot.latencySamples = s.latency
        if let started = recordingStarted {
            snapshot.recording = LiveSnapshot.Recording(
                seconds: now - started, files: recorder.paths, failedFiles: recorder.failedFiles,
                framesLost: recorder.framesLost, framesNotRun: recorder.framesNotRun)
        }
        snapshot.stream = streaming?.statusText
        snapshot.streamFigures = streaming?.figures
        if let backing {
            snapshot.backingPlaying = backing.source.pointee.isPlaying
            snapshot.backingSeconds = backing.secondsPlayed
        }
        let new = out.takeProblems()
        problemCount += new.count
        recentProblems = Array((recentProblems + new).suffix(LiveSnapshot.problemsKept))
        snapshot.problems = recentProblems
        snapshot.problemCount = problemCount
        snapshot.unsavedChanges = liveChanges != savedChanges
        hub.publish(snapshot)
        return snapshot
    }

    /// A linear RMS and peak as dBFS.
    private static func meter(_ level: Float, _ peak: Float) -> LiveSnapshot.Meter {
        LiveSnapshot.Meter(level: dBFS(level), peak: dBFS(peak))
    }

    private static func dBFS(_ linear: Float) -> Double {
        linear > 0 ? Double(Decibels.fromAmplitude(linear)) : -.infinity
    }
}
