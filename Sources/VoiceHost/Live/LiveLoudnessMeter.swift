import Foundation
import VoiceCycle
import VoiceEngine
import VoiceLoudness
import VoiceRecorder
import VoiceSession

/// The live session's loudness meter on voice_out, and `agc.target_lufs`'s loop.
///
/// The meter (`LiveLoudness`) is fed like a recording: its input rides beside the recordings and
/// the stream in every route set (`LiveRecorder.meterRoutes`), so the process thread only copies
/// voice_out into its preallocated blocks; libebur128 runs on the meter's own thread. Each take
/// (`LiveRecorder.start`) starts its integrated loudness again, and its figures close the take's
/// summary. With `agc.target_lufs`, every tick hands the figures to `LoudnessSteering` and posts
/// the leveller's new `target_dbfs` through `CycleHost.setLive`, the path every live `set`
/// takes.
///
/// - Realtime: never; main thread.
final class LiveLoudnessMeter {
    let meter: LiveLoudness
    private var steering: LoudnessSteering?
    private var warnedOutOfReach = false

    /// A meter at `sampleRate`, steering towards `session.levellerTargetLUFS` when it is set;
    /// nil when libebur128 cannot measure at that rate.
    init?(sampleRate: Int, session: SessionSettings, configuration: EngineConfiguration) {
        guard let meter = LiveLoudness(sampleRate: sampleRate, thread: true) else { return nil }
        self.meter = meter
        if session.levellerTargetLUFS != 0 {
            steering = LoudnessSteering(
                targetLUFS: Double(session.levellerTargetLUFS),
                speedDBPerSecond: Double(configuration.levellerSpeedDBPerSecond))
        }
    }

    /// The route that feeds the meter voice_out.
    var route: TapRoute { TapRoute(tap: .voice, input: meter.input) }

    /// The figures now.
    var figures: LoudnessFigures { meter.figures }

    /// The line that opens the session's log: what is measured and what is steered.
    var startLine: String {
        "loudness meter on voice_out (EBU R128, libebur128)"
            + (steering.map {
                String(format: "; the leveller steers to %.1f LUFS short-term (agc.target_lufs)", $0.targetLUFS)
            } ?? "")
    }

    /// One step of the loop: reads the figures and, when the target should move, posts it.
    /// Returns a warning, once a session, when the leveller's target sits at the end of its
    /// range and the voice is still more than 3 LU off: the target is out of its reach.
    func steer(_ host: CycleHost) -> String? {
        guard var steering else { return nil }
        let wanted = host.liveConfiguration
        defer { self.steering = steering }
        guard wanted.leveller else { return nil }
        let figures = meter.figures
        let current = Double(wanted.levellerTargetDBFS)
        if let next = steering.step(figures, currentDBFS: current) {
            // As the whole-configuration path did: no message for a value the engine has.
            if Float(next) != wanted.levellerTargetDBFS { _ = host.setLive(.engine(.levellerTarget), to: Float(next)) }
            return nil
        }
        let range = LoudnessSteering.targetRange
        guard !warnedOutOfReach, let shortTerm = figures.shortTerm,
            current <= range.lowerBound || current >= range.upperBound,
            abs(shortTerm - steering.targetLUFS) > 3
        else { return nil }
        warnedOutOfReach = true
        return String(
            format:
                "agc.target_lufs %.1f is out of the leveller's reach: target_dbfs is at %.0f dBFS and voice_out reads %.1f LUFS short-term (max_gain_db, or a compressor after the leveller, holds it)",
            steering.targetLUFS, current, shortTerm)
    }

    /// Stops the meter's thread; the process thread must no longer feed it.
    func stop() { meter.stop() }

    /// The take's summary line: `loudness of the take: -16.1 LUFS, range 4.2 LU, true peak -1.3 dBTP`.
    static func takeLine(_ figures: LoudnessFigures) -> String {
        "loudness of the take (voice_out): " + figures.take.summary
            + (figures.framesLost > 0
                ? " (\(figures.framesLost) frames not measured: not run, or the meter fell behind)" : "")
    }
}
