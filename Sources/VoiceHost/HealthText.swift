import Foundation
import VoiceControl
import VoiceEngine
import VoiceRT

/// Human-readable renderings of the engine's health figures (main thread only).
public enum HealthText {
    /// `-23.1 dBFS` style level; `-inf` below -120 dBFS.
    public static func level(_ linear: Float) -> String {
        linear <= 1e-6 ? "-inf dBFS" : String(format: "%.1f dBFS", Decibels.fromAmplitude(linear))
    }

    /// ERLE in dB with its verdict (`EchoVerdict`, the rule every surface says), or "not
    /// measured" when no far-end-only audio was seen: "echo removed: 42.0 dB (good)".
    public static func erle(_ ratio: Float) -> String {
        guard ratio > 0 else { return "not measured (no far-end-only audio yet)" }
        let db = Decibels.fromPower(Double(ratio))
        return String(format: "echo removed: %.1f dB", db) + " (\(EchoVerdict(removedDB: db).advice))"
    }

    /// The clock drift between playback and mic in plain words ("+80 ppm, following").
    public static func drift(_ ppm: Float, _ compensation: DriftCompensation) -> String {
        switch compensation {
        case .following: return String(format: "%+.0f ppm, following", ppm)
        case .beyondRange:
            return String(format: "%+.0f ppm", ppm)
                + " (two clocks, beyond the ±1000 ppm followed: expect echo; use one sound card if you can)"
        case .off:
            guard ppm.isFinite else { return "not measured yet" }
            // Under 20 ppm the figure cannot tell two clocks from one: the early phase figure
            // (PhaseDrift) scatters that far on a room without drift.
            if abs(ppm) < 20 { return String(format: "none (%+.0f ppm)", ppm) }
            // Followed from 30 ppm on (EngineState.slopeEngagePPM); below, the canceller copes.
            return String(format: "%+.0f ppm", ppm)
                + (abs(ppm) < 30 ? " (two clocks: small, not followed)" : " (two clocks: not followed yet)")
        }
    }

    /// The loudspeaker's modelled soft clipping in plain words: the level from which its peaks
    /// are compressed by 1 dB or more, and the curve ("clips: peaks above -18 dBFS lose 1 dB or
    /// more (modelled as tanh(5.0·x)/5.0)"), or "no clipping modelled" for a drive of 0 (a linear
    /// speaker, or the curve off: `speaker_curve = false`, a stereo reference).
    public static func speaker(drive: Float) -> String {
        guard drive > 0, drive.isFinite else { return "no clipping modelled" }
        // tanh(u)/u = −1 dB at u ≈ 0.615, so the peak level is 0.615 / a.
        let onset = Decibels.fromAmplitude(0.615 / drive)
        return String(
            format: "clips: peaks above %.0f dBFS lose 1 dB or more (modelled as tanh(%.1f·x)/%.1f)", onset, drive,
            drive)
    }

    /// `2.4 kHz` or `850 Hz`.
    public static func frequency(_ hz: Float) -> String {
        hz >= 1_000 ? String(format: "%.1f kHz", hz / 1_000) : String(format: "%.0f Hz", hz)
    }

    /// Milliseconds for a count of samples.
    public static func milliseconds(_ samples: Int, rate: Int) -> String {
        String(format: "%.1f ms", Double(samples) * 1000 / Double(rate))
    }

    /// The delay estimate and what was applied, as one line.
    public static func delay(_ h: HealthFigures, rate: Int) -> String {
        let applied = milliseconds(h.appliedDelay, rate: rate)
        guard h.estimatedDelay >= 0 else { return "not estimated (applied \(applied))" }
        return
            "estimated \(milliseconds(h.estimatedDelay, rate: rate)) (confidence \(String(format: "%.1f", h.delayConfidence))), applied \(applied)"
    }
}

extension OfflineReport {
    /// The end-of-run summary `voicerack process` prints.
    public func summary(micPath: String, outputPath: String, presetName: String) -> String {
        let seconds = Double(frames) / Double(sampleRate)
        let h = health
        let ref =
            referenceChannels == 0 ? "no reference" : referenceChannels == 2 ? "stereo reference" : "mono reference"
        var lines = [
            String(
                format: "processed %@: %.2f s at %d Hz, %@, preset %@", micPath, seconds, sampleRate, ref, presetName),
            "  blocks of \(plan.blockSize) samples, canceller frames of \(plan.frameSize) (\(HealthText.milliseconds(plan.frameSize, rate: sampleRate)))",
            "  latency live: \(liveLatency) samples = \(HealthText.milliseconds(liveLatency, rate: sampleRate)) (re-framing \(plan.framingLatency) + preprocessor and effect units \(liveLatency - plan.framingLatency)); the file is time-aligned (0 ms)",
        ]
        if referenceChannels > 0 {
            lines.append(
                "  reference delay: " + HealthText.delay(h, rate: sampleRate)
                    + ", canceller resets \(h.cancellerResets)")
            lines.append(
                "  echo return loss enhancement (far end alone): " + HealthText.erle(h.echoReturnLossEnhancement))
            lines.append("  clock drift, playback to mic: " + HealthText.drift(h.clockDriftPPM, h.driftCompensation))
            lines.append("  loudspeaker: " + HealthText.speaker(drive: h.speakerDrive))
        }
        lines.append(
            "  levels at the end: mic \(HealthText.level(h.micLevel)), voice \(HealthText.level(h.outputLevel)); leveller gain "
                + String(format: "%+.1f dB", Decibels.fromAmplitude(h.levellerGain)))
        lines.append(
            "  clipping: \(h.clippedInputSamples) mic samples at full scale, \(h.clippedOutputSamples) output samples limited; \(h.nonFiniteSamples) NaN/Inf input samples replaced"
        )
        if h.learnedHops + h.learnedMissedHops > 0 {
            lines.append(
                "  learned suppressor (DeepFilterNet 3): \(h.learnedHops) hops, \(h.learnedMissedHops) missed (the classical suppressor's output in their place)"
            )
        }
        lines.append(
            String(format: "  CPU %.2f s (%.0f× real time)", cpuSeconds, cpuSeconds > 0 ? seconds / cpuSeconds : 0))
        if let backingUnderruns { lines.append("  backing track: \(backingUnderruns) frames underrun") }
        lines.append("wrote \(outputPath) (\(format), \(frames) frames)")
        lines += tapLines
        return lines.joined(separator: "\n")
    }
}
