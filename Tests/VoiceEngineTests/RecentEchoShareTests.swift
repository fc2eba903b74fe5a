import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceEcho

/// The residual model's far-end-alone decision (`ResidualEchoSuppressor.recentEchoShare`, from
/// `SmoothedCrossSpectra` over `recentShareTimeConstant`): back within 1.5 s of a
/// talker stopping, where the coherence gain's 0.8 s statistics (`EchoCoherence`) still read
/// the talker.
@Suite("Recent echo share")
struct RecentEchoShareTests {
    @Test("after double talk the share is back over 0.95 within 1.5 s; in double talk it stays under")
    func shareRecoversAfterDoubleTalk() {
        var random = SeededRandom(seed: 21)
        let bins = 64
        let recent = SmoothedCrossSpectra(
            bins: bins, frameSize: 384, sampleRate: 48_000,
            timeConstant: ResidualEchoSuppressor.recentShareTimeConstant)
        let slow = EchoCoherence(drive: 0.2, bins: bins, frameSize: 384, sampleRate: 48_000)
        defer {
            recent.deallocate()
            slow.deallocate()
        }
        // 8 ms frames: 2 s of far end alone, 2 s of a talker as loud as the echo, then the far
        // end alone again (the mic a linear filter's residual of the echo estimate).
        let farAlone = 250
        let doubleTalk = 250
        var inDoubleTalk: Float = 0
        var recentAfter: [Float] = []
        var slowAfter: [Float] = []
        for frame in 0..<(farAlone + doubleTalk + 300) {
            let talks = frame >= farAlone && frame < farAlone + doubleTalk
            for k in 0..<bins {
                // Unit phasors of random phase: the echo estimate, and a talker as loud.
                let echoPhase = Float.random(in: 0..<(2 * .pi), using: &random)
                let talkerPhase = Float.random(in: 0..<(2 * .pi), using: &random)
                let y = (cos(echoPhase), sin(echoPhase))
                let n: (Float, Float) = talks ? (cos(talkerPhase), sin(talkerPhase)) : (0, 0)
                let d = (0.9 * y.0 + n.0, 0.9 * y.1 + n.1)
                recent.accumulate(k, yr: y.0, yi: y.1, dr: d.0, di: d.1)
                slow.accumulate(k, yr: y.0, yi: y.1, dr: d.0, di: d.1)
            }
            if talks && frame >= farAlone + 50 { inDoubleTalk = max(inDoubleTalk, recent.explainedShare(0..<bins)) }
            if frame >= farAlone + doubleTalk {
                recentAfter.append(recent.explainedShare(0..<bins))
                slowAfter.append(slow.explainedShare(0..<bins))
            }
        }
        // The first frame after the talker stops from which the share stays over 0.95.
        func recovery(_ shares: [Float]) -> Float {
            let last = shares.lastIndex { $0 < 0.95 } ?? -1
            return Float(last + 1) * 0.008
        }
        let recentSeconds = recovery(recentAfter)
        let slowSeconds = recovery(slowAfter)
        print(
            String(
                format:
                    "recent share: most in double talk %.3f, back over 0.95 after %.2f s (0.8 s statistics: %.2f s)",
                inDoubleTalk, recentSeconds, slowSeconds))
        #expect(inDoubleTalk < 0.7)
        #expect(recentSeconds < 1.5)
        // What the decision took before: still under 0.95 for over 2 s.
        #expect(slowSeconds > 2)
    }
}
