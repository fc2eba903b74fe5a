import CEbur128
import Foundation

/// EBU R128 loudness and true peak of audio fed to it in blocks, measured by libebur128.
///
/// Momentary (400 ms), short-term (3 s) and integrated loudness, loudness range and true peak, for
/// 1–8 channels at any rate libebur128 takes. A mono signal is measured as one channel, as
/// ffmpeg's `ebur128` filter and libebur128's own tools do by default: the same voice played on
/// both loudspeakers of a stereo pair reads 3 LU louder.
///
/// - Realtime: never (libebur128 allocates as the measurement grows). One thread at a time.
public final class LoudnessMeter {
    public let channels: Int
    public let sampleRate: Int
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// A meter for `channels` channels at `sampleRate` Hz; nil when libebur128 refuses them.
    /// `sessionOnly` measures momentary and short-term loudness only: its memory stays flat
    /// however long it runs (integrated loudness and range keep every 100 ms block).
    public init?(channels: Int, sampleRate: Int, sessionOnly: Bool = false) {
        let mode =
            sessionOnly
            ? EBUR128_MODE_M.rawValue | EBUR128_MODE_S.rawValue
            : EBUR128_MODE_M.rawValue | EBUR128_MODE_S.rawValue | EBUR128_MODE_I.rawValue
                | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue
        guard channels > 0, sampleRate > 0,
            let state = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(mode))
        else { return nil }
        self.channels = channels
        self.sampleRate = sampleRate
        self.state = state
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `frames` interleaved frames (`frames × channels` samples, ±1.0 full scale).
    public func add(_ interleaved: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        ebur128_add_frames_float(state, interleaved, frames)
    }

    /// Adds mono samples; the meter must have one channel.
    public func add(_ samples: [Float]) {
        precondition(channels == 1, "add(_:) takes mono samples")
        samples.withUnsafeBufferPointer { add($0.baseAddress!, frames: $0.count) }
    }

    /// Integrated loudness so far, LUFS; nil before any block passes the −70 LUFS gate.
    public var integrated: Double? { figure(ebur128_loudness_global) }

    /// Loudness of the last 400 ms, LUFS; nil for silence (under R128's −70 LUFS gate).
    public var momentary: Double? { gated(figure(ebur128_loudness_momentary)) }

    /// Loudness of the last 3 s, LUFS; nil for silence (under R128's −70 LUFS gate).
    public var shortTerm: Double? { gated(figure(ebur128_loudness_shortterm)) }

    /// R128's absolute gate: libebur128 reads a window of near-silence (a muted voice, a noise
    /// floor at −110 dBFS) as a finite figure far under it, which no surface should show as a
    /// loudness; the integrated figure is gated by libebur128 itself.
    private func gated(_ value: Double?) -> Double? {
        value.flatMap { $0 >= -70 ? $0 : nil }
    }

    /// Loudness range so far, LU; nil until there is enough to tell.
    public var range: Double? {
        var value = 0.0
        guard ebur128_loudness_range(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite else {
            return nil
        }
        return value
    }

    /// The highest true peak of any channel so far, dBTP; nil for digital silence.
    public var truePeak: Double? {
        var highest = 0.0
        for channel in 0..<channels {
            var value = 0.0
            if ebur128_true_peak(state, UInt32(channel), &value) == EBUR128_SUCCESS.rawValue {
                highest = max(highest, value)
            }
        }
        return highest > 0 ? 20 * log10(highest) : nil
    }

    /// The figures so far.
    public var reading: LoudnessReading {
        let integrated = integrated
        // libebur128 reads a range of 0 LU for silence; silence has no range.
        return LoudnessReading(integrated: integrated, range: integrated == nil ? nil : range, truePeak: truePeak)
    }

    private func figure(
        _ read: (UnsafeMutablePointer<ebur128_state>?, UnsafeMutablePointer<Double>?) -> Int32
    )
        -> Double?
    {
        var value = 0.0
        // libebur128 reports -HUGE_VAL for audio under the gate.
        guard read(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite, value > -200 else { return nil }
        return value
    }
}
