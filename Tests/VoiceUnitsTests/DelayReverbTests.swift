import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("Delay and reverb")
struct DelayReverbTests {
    @Test("an impulse comes back after time_ms, each repeat scaled by the feedback")
    func echoes() {
        var d = Delay(timeMs: 100, feedback: 0.5, mix: 1)
        d.prepare(Harness.spec)
        defer { d.deallocate() }
        var x = [Float](repeating: 0, count: 20_000)
        x[0] = 1
        let y = Harness.run(&d, x, block: 128)
        #expect(y[0] == 0)  // wet only
        #expect(abs(y[4_800] - 1) < 1e-6)
        #expect(abs(y[9_600] - 0.5) < 1e-6)
        #expect(abs(y[14_400] - 0.25) < 1e-6)
        #expect(abs(y[19_200] - 0.125) < 1e-6)
        let elsewhere = y.indices.filter { ![4_800, 9_600, 14_400, 19_200].contains($0) }.map { abs(y[$0]) }.max()!
        #expect(elsewhere == 0)

        var half = Delay(timeMs: 10, feedback: 0, mix: 0.5)
        half.prepare(Harness.spec)
        defer { half.deallocate() }
        let z = Harness.run(&half, x)
        #expect(abs(z[0] - 0.5) < 1e-6 && abs(z[480] - 0.5) < 1e-6 && z[960] == 0)
    }

    @Test("the delay's tail decays: the last 100 ms of 3 s are > 60 dB under the first echo")
    func delayTail() {
        var d = Delay(timeMs: 290, feedback: 0.35, mix: 1)
        d.prepare(Harness.spec)
        defer { d.deallocate() }
        var x = [Float](repeating: 0, count: 144_000)
        x[0] = 1
        let y = Harness.run(&d, x)
        let first = Harness.energy(y, 13_920..<18_720)  // 100 ms from the first echo
        let last = Harness.energy(y, 139_200..<144_000)  // holds the 10th echo, 0.35⁹ ≈ −82 dB
        #expect(10 * log10(last / first) < -60)
        #expect(last > 0)  // but the feedback is really there
    }

    @Test("the reverb's tail decays, longer for a bigger room")
    func reverbTail() {
        func tail(room: Float) -> (first: Double, at1s: Double, last: Double) {
            var r = Reverb(roomSize: room, damping: 0.5, mix: 1)
            r.prepare(Harness.spec)
            defer { r.deallocate() }
            var x = [Float](repeating: 0, count: 144_000)
            x[0] = 1
            let y = Harness.run(&r, x)
            return (
                Harness.energy(y, 0..<4_800), Harness.energy(y, 48_000..<52_800), Harness.energy(y, 139_200..<144_000)
            )
        }
        let medium = tail(room: 0.5)
        #expect(medium.first > 1e-3)  // it reverberates
        #expect(10 * log10(medium.last / medium.first) < -60)
        let big = tail(room: 0.9), small = tail(room: 0.2)
        #expect(big.at1s > 100 * small.at1s)  // > 20 dB more energy left after 1 s
    }

    @Test("reverb tunings scale with the sample rate: the same decay at 44.1 and 96 kHz")
    func rateScaling() {
        func decayDB(rate: Int) -> Double {
            var r = Reverb(roomSize: 0.7, damping: 0.3, mix: 1)
            r.prepare(ProcessSpec(sampleRate: Double(rate), maximumBlockSize: 256))
            defer { r.deallocate() }
            var x = [Float](repeating: 0, count: rate)
            x[0] = 1
            let y = Harness.run(&r, x)
            let tenth = rate / 10
            return 10 * log10(Harness.energy(y, (9 * tenth)..<rate) / Harness.energy(y, tenth..<(2 * tenth)))
        }
        #expect(abs(decayDB(rate: 44_100) - decayDB(rate: 96_000)) < 3)
    }

    @Test("mix 0 and bypass leave the signal dry")
    func dry() {
        let x = Signals.whiteNoise(count: 8_192, rms: 0.1, seed: 9)
        var r = Reverb(mix: 0)
        r.prepare(Harness.spec)
        defer { r.deallocate() }
        #expect(Harness.run(&r, x) == x)
        var d = Delay(bypassed: true)
        d.prepare(Harness.spec)
        defer { d.deallocate() }
        #expect(Harness.run(&d, x) == x)
    }
}
