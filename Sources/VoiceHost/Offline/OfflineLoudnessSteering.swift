import VoiceCycle
import VoiceEngine
import VoiceLoudness
import VoiceSession

/// `agc.target_lufs` offline: the loudness meter runs over the voice as the cycles produce it,
/// and before each cycle the loop (`LoudnessSteering`) may move the leveller's `target_dbfs`,
/// as it does live; the steps come every half second of audio, so the result does not depend
/// on how fast the machine renders.
///
/// - Realtime: never; the offline driver's thread (it drains the meter itself: no thread of the
///   meter's own).
final class OfflineLoudnessSteering {
    private let meter: LiveLoudness
    private var steering: LoudnessSteering
    private let host: CycleHost

    /// Nil when the preset sets no loudness target or no leveller (a preset checks that), or
    /// libebur128 cannot measure at the host's rate.
    init?(session: SessionSettings, configuration: EngineConfiguration, host: CycleHost) {
        guard session.levellerTargetLUFS != 0, configuration.leveller,
            let meter = LiveLoudness(sampleRate: host.sampleRate, thread: false)
        else { return nil }
        self.meter = meter
        self.host = host
        steering = LoudnessSteering(
            targetLUFS: Double(session.levellerTargetLUFS),
            speedDBPerSecond: Double(configuration.levellerSpeedDBPerSecond))
    }

    /// The route that feeds the meter the voice.
    var route: TapRoute { TapRoute(tap: .voice, input: meter.input) }

    /// Measures what the last cycles put out and moves the target when the loop says so.
    func step() {
        meter.drain()
        let current = host.liveConfiguration.levellerTargetDBFS
        // No message for a value the engine has (as the whole-configuration path sent none).
        guard let next = steering.step(meter.figures, currentDBFS: Double(current)), Float(next) != current else {
            return
        }
        _ = host.setLive(.engine(.levellerTarget), to: Float(next))
    }
}
