import Testing
import VoiceSpeex
import VoiceTestSupport

@testable import VoiceEcho

/// Which drift figures engage clock-drift following (`SpeexEchoCanceller.followDriftFigure`):
/// a figure that scatters must not, since following a drift that is not there costs the
/// canceller much of its echo removal (recorded voices at 48 kHz with a 280 ms delay and no
/// drift: docs/measurements.md).
@Suite("Drift engagement")
struct DriftEngagementTests {
    static let rate = 48_000

    /// A canceller at 48 kHz whose reference is already delayed by 270 ms (a 280 ms seed less the
    /// margin), so following can engage.
    static func canceller() -> SpeexEchoCanceller {
        var settings = EchoSettings()
        settings.echoCancellation = true
        settings.delayMilliseconds = 280
        var speex = SpeexSettings()
        speex.frameSize = 384
        speex.filterLength = rate / 5
        return SpeexEchoCanceller(
            settings: settings, speex: speex,
            spec: EchoSpec(sampleRate: rate, blockSize: 256, frameSize: 384, leavesFrameFreeCycles: false))
    }

    /// Feeds the delay slope lags (samples) every 0.5 s from second 1, as the delay estimator
    /// reports them, and lets the canceller look at the figures after each.
    static func feedLags(_ lags: [Double], into canceller: inout SpeexEchoCanceller) {
        for (i, lag) in lags.enumerated() {
            canceller.drift.add(lag: lag, time: rate + i * rate / 2)
            canceller.followDriftFigure()
        }
    }

    @Test("a second lag a pitch period (3.3 ms) off the others does not engage following without drift")
    func outlierLagDoesNotEngage() throws {
        var canceller = Self.canceller()
        // The lags a recorded voice gave at 48 kHz, 280 ms of delay, no drift (seed 3 of the
        // real-speech set with a 280 ms long delay): the second peak was a pitch period late.
        let lags: [Double] = [
            13538.9, 13698.4, 13538.4, 13539.1, 13538.2, 13538.9, 13539.2, 13539.2, 13539.2, 13538.6, 13538.7,
            13538.7, 13539.1, 13539.0, 13540.6,
        ]
        Self.feedLags(lags, into: &canceller)
        let figure = try #require(canceller.drift.ppm)
        print("outlier: slope \(figure) ppm at significance \(canceller.drift.significance)")
        // The settled figure is far off (one point in eleven drags the line) but insignificant.
        #expect(abs(figure) >= SpeexEchoCanceller.slopeEngagePPM)
        #expect(canceller.drift.significance < SpeexEchoCanceller.slopeEngageSignificance)
        #expect(!canceller.follower.engaged)
    }

    @Test("a clear 100 ppm in the lags still engages following, at the drift")
    func clearDriftEngages() {
        var canceller = Self.canceller()
        var random = SeededRandom(seed: 75)
        let lags = (0..<12).map { i in
            13_500 + 100e-6 * Double(Self.rate) * 0.5 * Double(i) + Double.random(in: -0.5...0.5, using: &random)
        }
        Self.feedLags(lags, into: &canceller)
        print("clear: slope \(canceller.drift.ppm ?? .nan) ppm at significance \(canceller.drift.significance)")
        #expect(canceller.follower.engaged)
        #expect(abs(canceller.follower.driftPPM - 100) <= 10)
    }

    @Test("scattered phase samples do not engage following; steady ones do")
    func scatteredPhaseDoesNotEngage() {
        // The first phase samples on recorded voices without drift (seed 2, 48 kHz) and on the
        // real-speech set's 100 ppm drift scenario (seed 1, 48 kHz), ppm.
        var scattered = Self.canceller()
        for ppm in [15.0, 303, 63] { scattered.estimator.phaseDrift.take(ppm) }
        scattered.followDriftFigure()
        #expect(scattered.estimator.phaseDrift.figure() == 63)
        #expect(scattered.estimator.phaseDrift.steadyFigure() == nil)
        #expect(!scattered.follower.engaged)

        var steady = Self.canceller()
        for ppm in [-79.0, -109, -94] { steady.estimator.phaseDrift.take(ppm) }
        steady.followDriftFigure()
        #expect(steady.estimator.phaseDrift.steadyFigure() == -94)
        #expect(steady.follower.engaged)
        #expect(steady.follower.driftPPM == -94)
    }

    /// Lags of a `ppm` line every 0.5 s from second 1, with ±0.5 samples of seeded scatter.
    static func lags(ppm: Double, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0..<12).map { i in
            13_500 + ppm * 1e-6 * Double(rate) * 0.5 * Double(i) + Double.random(in: -0.5...0.5, using: &random)
        }
    }

    @Test("a significant slope does not engage while the phase samples beside it scatter; it does beside steady ones")
    func slopeNeedsASteadyPhase() {
        // Seed 2 at 48 kHz: the peak lag wandered by 20 samples over 4 s (a slope of about +90
        // ppm) while the phase samples scattered about a median of 39 ppm.
        var scattered = Self.canceller()
        for ppm in [15.0, 303, 63, -2] { scattered.estimator.phaseDrift.take(ppm) }
        Self.feedLags(Self.lags(ppm: 90, seed: 76), into: &scattered)
        #expect(scattered.drift.significance >= SpeexEchoCanceller.slopeEngageSignificance)
        #expect(!scattered.follower.engaged)

        // A room where the phase reads a third of the drift, steadily: the slope leads.
        var steady = Self.canceller()
        for ppm in [30.0, 35, 33] { steady.estimator.phaseDrift.take(ppm) }
        Self.feedLags(Self.lags(ppm: 90, seed: 76), into: &steady)
        #expect(steady.follower.engaged)
        #expect(abs(steady.follower.driftPPM - 90) <= 10)
    }

    @Test("an early slope waits for the phase figure, which then leads")
    func earlySlopeWaitsForPhase() throws {
        // The real-speech set's drift scenario at 48 kHz, seed 1: an early slope figure of
        // −265 ppm (significance 6.9) one figure before a steady phase figure of −94 ppm; the
        // drift was 100 ppm. Here: 5 lags of −273 ppm with a few samples of scatter.
        var canceller = Self.canceller()
        let scatter: [Double] = [0, 3, -3, 3, -1]
        let lags = scatter.enumerated().map { i, s in 13_500 - 265e-6 * Double(Self.rate) * 0.5 * Double(i) + s }
        Self.feedLags(lags, into: &canceller)
        let slope = try #require(canceller.drift.ppm)
        print("early slope \(slope) ppm at significance \(canceller.drift.significance)")
        #expect(canceller.drift.significance >= SpeexEchoCanceller.slopeEngageSignificance)
        #expect(canceller.drift.significance < SpeexEchoCanceller.slopeAloneSignificance)
        #expect(!canceller.follower.engaged)
        for ppm in [-93.5, -101.2, -93.5] { canceller.estimator.phaseDrift.take(ppm) }
        canceller.followDriftFigure()
        #expect(canceller.follower.engaged)
        #expect(canceller.follower.driftPPM == -93.5)
        // With no phase figure at all, the slope engages after its wait.
        var alone = Self.canceller()
        Self.feedLags(lags, into: &alone)
        for _ in 0..<SpeexEchoCanceller.slopeWaitFigures { alone.followDriftFigure() }
        #expect(alone.follower.engaged)
    }

    @Test("engaging steps the reference's delay by half the drift since the canceller's reset")
    func engagingStepsTheReferenceToTheFilter() {
        // The real-speech set's drift scenario at 48 kHz, seed 1: the canceller was reset at the
        // first delay estimate (2.57 s), and the phase figure engaged following at −93.5 ppm at
        // 4.10 s, 191 frames of 384 samples later. The echo's delay had shrunk by 6.9 samples since
        // the reset; the filter stood about half of that behind.
        var canceller = Self.canceller()
        canceller.reset()
        for _ in 0..<191 { canceller.followDrift(referenceActive: true) }
        let before = canceller.referenceDelay.delay
        for ppm in [-93.5, -101.2, -93.5] { canceller.estimator.phaseDrift.take(ppm) }
        canceller.followDriftFigure()
        #expect(canceller.follower.engaged)
        #expect(canceller.follower.driftPPM == -93.5)
        #expect(canceller.referenceDelay.delay == before - 3)

        // Engaging right after a reset steps nothing.
        var fresh = Self.canceller()
        fresh.reset()
        let freshBefore = fresh.referenceDelay.delay
        for ppm in [-93.5, -101.2, -93.5] { fresh.estimator.phaseDrift.take(ppm) }
        fresh.followDriftFigure()
        #expect(fresh.follower.engaged)
        #expect(fresh.referenceDelay.delay == freshBefore)
    }
}
