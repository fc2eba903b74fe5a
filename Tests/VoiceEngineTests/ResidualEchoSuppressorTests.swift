import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// The residual echo post-filter (`ResidualEchoSuppressor`) and its band splitter, alone and in
/// the engine. Near-end quality is checked with a waveform proxy computed here (PESQ is not
/// available to Swift tests): the scale-invariant SDR of the output against the near-end talker
/// over the double-talk stretch.
@Suite("Residual echo post-filter")
struct ResidualEchoSuppressorTests {
    @Test(
        "the band splitter's bands add back up to the input, sample for sample",
        arguments: [16_000, 48_000])
    func splitterIsTransparent(rate: Int) {
        let splitter = BandSplitter(edges: ResidualEchoSuppressor.edges, sampleRate: rate)
        defer { splitter.deallocate() }
        let frame = 384
        let input = Signals.speechLike(count: frame * 50, sampleRate: rate, rms: 0.1, seed: 5)
        let rows = UnsafeMutablePointer<Float>.allocate(capacity: splitter.bands * frame)
        defer { rows.deallocate() }
        var energy = [Float](repeating: 0, count: splitter.bands)
        var worst: Float = 0
        input.withUnsafeBufferPointer { x in
            for start in stride(from: 0, to: input.count, by: frame) {
                splitter.split(x.baseAddress! + start, frame, into: rows, stride: frame, energy: &energy)
                for i in 0..<frame {
                    var sum: Float = 0
                    for b in 0..<splitter.bands { sum += rows[b * frame + i] }
                    worst = max(worst, abs(sum - x[start + i]))
                }
            }
        }
        #expect(splitter.bands == 6)
        #expect(worst < 1e-5, "largest reconstruction error \(worst)")
        // Every band carries some of the speech-like signal.
        #expect(energy.allSatisfy { $0 > 0 })
    }

    @Test(
        "the band splitter's five splits side by side give the bands and energies of the splits in turn, to the bit",
        arguments: [16_000, 48_000])
    func splitterSideBySideEqualsInTurn(rate: Int) {
        let sideBySide = BandSplitter(edges: ResidualEchoSuppressor.edges, sampleRate: rate)
        let inTurn = BandSplitter(edges: ResidualEchoSuppressor.edges, sampleRate: rate)
        defer {
            sideBySide.deallocate()
            inTurn.deallocate()
        }
        #expect(sideBySide.bands == 6)
        let frame = rate / 125
        // Speech-like, then silence: the filters ring down through the denormal flush as well.
        let input =
            Signals.speechLike(count: frame * 40, sampleRate: rate, rms: 0.1, seed: 9)
            + [Float](repeating: 0, count: frame * 20)
        let a = UnsafeMutablePointer<Float>.allocate(capacity: 6 * frame)
        let b = UnsafeMutablePointer<Float>.allocate(capacity: 6 * frame)
        defer {
            a.deallocate()
            b.deallocate()
        }
        var energyA = [Float](repeating: 0, count: 6)
        var energyB = [Float](repeating: 0, count: 6)
        var differing = 0
        input.withUnsafeBufferPointer { x in
            for start in stride(from: 0, to: input.count, by: frame) {
                sideBySide.split(x.baseAddress! + start, frame, into: a, stride: frame, energy: &energyA)
                inTurn.splitInTurn(x.baseAddress! + start, frame, into: b, stride: frame, energy: &energyB)
                for i in 0..<(6 * frame) where a[i].bitPattern != b[i].bitPattern { differing += 1 }
            }
        }
        #expect(differing == 0)
        #expect(energyA.map(\.bitPattern) == energyB.map(\.bitPattern))
        #expect(energyA.allSatisfy { $0 > 0 })
    }

    @Test(
        "two signals split alongside give each one's own split to the bit, and the second splitter moves on only when committed",
        arguments: [16_000, 48_000])
    func splitterAlongsideEqualsTwoSplits(rate: Int) {
        let edges = ResidualEchoSuppressor.edges
        let first = BandSplitter(edges: edges, sampleRate: rate)
        let second = BandSplitter(edges: edges, sampleRate: rate)
        let firstAlone = BandSplitter(edges: edges, sampleRate: rate)
        let secondAlone = BandSplitter(edges: edges, sampleRate: rate)
        defer {
            for splitter in [first, second, firstAlone, secondAlone] { splitter.deallocate() }
        }
        let frame = rate / 125
        let count = frame * 60
        let x = Signals.speechLike(count: count, sampleRate: rate, rms: 0.1, seed: 9)
        let y = Signals.speechLike(count: count, sampleRate: rate, rms: 0.3, seed: 4)
        let rows = (0..<4).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 6 * frame) }
        defer { rows.forEach { $0.deallocate() } }
        // Band energies: of the first and second signals split alongside, then each alone.
        var firstEnergy = [Float](repeating: 0, count: 6)
        var secondEnergy = firstEnergy
        var firstAloneEnergy = firstEnergy
        var secondAloneEnergy = firstEnergy
        var differing = 0
        var committed = 0
        for start in stride(from: 0, to: count, by: frame) {
            x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    first.splitFiveAlongside(
                        xs.baseAddress! + start, frame, into: rows[0], energy: &firstEnergy, other: second,
                        second: ys.baseAddress! + start, into: rows[1], energy: &secondEnergy)
                    firstAlone.split(
                        xs.baseAddress! + start, frame, into: rows[2], stride: frame, energy: &firstAloneEnergy)
                    // The second signal counts every third frame only: the frames between are undone.
                    if (start / frame) % 3 == 0 {
                        second.commitPending()
                        committed += 1
                        secondAlone.split(
                            ys.baseAddress! + start, frame, into: rows[3], stride: frame, energy: &secondAloneEnergy)
                        for i in 0..<(6 * frame) where rows[1][i].bitPattern != rows[3][i].bitPattern { differing += 1 }
                    }
                }
            }
            for i in 0..<(6 * frame) where rows[0][i].bitPattern != rows[2][i].bitPattern { differing += 1 }
        }
        #expect(committed == 20)
        #expect(differing == 0)
        #expect(firstEnergy.map(\.bitPattern) == firstAloneEnergy.map(\.bitPattern))
        #expect(firstEnergy.allSatisfy { $0 > 0 } && secondAloneEnergy.allSatisfy { $0 > 0 })
    }

    /// Background noise with a loud echo estimate over it: the gain closes and comfort noise
    /// takes the noise's place at its own level.
    @Test(
        "comfort noise keeps the background within 3 dB of the input noise floor",
        arguments: [16_000, 48_000])
    func comfortNoiseLevel(rate: Int) {
        let frame = rate / 125
        var filter = ResidualEchoSuppressor(
            strength: 1, frameSize: frame, sampleRate: rate, lagsOneFrame: true)
        let seconds = 4
        let noise = Signals.whiteNoise(count: rate * seconds, rms: 0.003, seed: 7)  // −50 dBFS
        let echo = Signals.whiteNoise(count: rate * seconds, rms: 0.2, seed: 8)
        var out = [Float]()
        var gains = [Float]()
        let error16 = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        let mic16 = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        let block = UnsafeMutablePointer<Float>.allocate(capacity: frame)
        defer {
            error16.deallocate()
            mic16.deallocate()
            block.deallocate()
        }
        for start in stride(from: 0, to: noise.count - frame + 1, by: frame) {
            for i in 0..<frame {
                error16[i] = Int16((noise[start + i] * 32768).rounded())
                mic16[i] = Int16(
                    max(-32768, min(32767, ((noise[start + i] + echo[start + i]) * 32768).rounded())))
                block[i] = noise[start + i]
            }
            filter.analyse(mic: mic16, output: error16)
            filter.update()
            filter.apply(block)
            out.append(contentsOf: UnsafeBufferPointer(start: block, count: frame))
            gains.append(filter.lastGain)
        }
        let settled = out.count / 2..<out.count
        let level = Measure.levelDB(out, settled)
        let floor = Measure.levelDB(noise, settled)
        let meanGain = gains[(gains.count / 2)...].reduce(0, +) / Float(gains.count - gains.count / 2)
        print(
            String(
                format: "rate %d: noise %.1f dBFS, output %.1f dBFS, mean gain %.3f", rate, floor, level,
                meanGain))
        #expect(meanGain < 0.1, "the echo estimate should close the gain")
        #expect(abs(level - floor) <= 3)
    }

    /// A room whose reverberation (0.5 s) outlasts the 150 ms filter, far end alone.
    static func reverberantScenario(
        rate: Int, nearEnd: Bool, nonlinear: Bool = false
    ) -> (
        reference: [Float], near: [Float], mic: [Float]
    ) {
        let n = rate * 14
        let reference = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 61)
        // A small loudspeaker driven hard: soft clipping adds harmonics no linear filter models.
        let played = nonlinear ? reference.map { 0.25 * Float(tanh(Double($0) * 8)) } : reference
        let room = Signals.roomImpulse(
            sampleRate: rate, bulkDelay: 0.04, tail: 0.5, gain: 0.5, seed: 62)
        let echo = Signals.convolve(played, room)
        var near = [Float](repeating: 0, count: n)
        if nearEnd {
            // The near end joins for the last 5 s, over the far end.
            let talker = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 63)
            for i in (n - 5 * rate)..<n { near[i] = talker[i] }
        }
        let noise = Signals.whiteNoise(count: n, rms: 0.0003, seed: 64)
        return (reference, near, Signals.mix(echo, near, noise))
    }

    /// The echo-cancel engine over `mic` and `reference` with the post-filter's tail model at
    /// `strength` and its coherence gain at `coherence` (both 0: no post-filter).
    static func run(
        _ mic: [Float], _ reference: [Float], rate: Int, strength: Float, coherence: Float = 0
    ) throws
        -> [Float]
    {
        var c = EngineConfiguration.echoCancel
        c.residualSuppression = strength
        c.coherenceSuppression = coherence
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        return OfflineRenderer(engine: engine).process(mic: mic, reference: [reference])
    }

    /// ERLE (dB) of the far-end-only reverberant scenario at 16 kHz after 40% of it, once per
    /// post-filter setting (tail-model strength, coherence drive).
    static func farEndOnlyERLE(nonlinear: Bool, settings: [(strength: Float, coherence: Float)]) throws -> [Double] {
        let rate = 16_000
        let s = reverberantScenario(rate: rate, nearEnd: false, nonlinear: nonlinear)
        let settled = (s.mic.count * 4 / 10)..<s.mic.count
        return try settings.map { setting in
            let out = try run(
                s.mic, s.reference, rate: rate, strength: setting.strength, coherence: setting.coherence)
            return Measure.ratioDB(s.mic, out, settled)
        }
    }

    @Test(
        "the post-filter removes reverberant echo the linear filter leaves, and costs nothing on nonlinear echo",
        arguments: [false, true])
    func removesResidualEcho(nonlinear: Bool) throws {
        let erle = try Self.farEndOnlyERLE(nonlinear: nonlinear, settings: [(0, 0), (2, 0)])
        let erleOff = erle[0]
        let erleOn = erle[1]
        print(
            String(format: "nonlinear %@: ERLE off %.1f dB, on %.1f dB", "\(nonlinear)", erleOff, erleOn))
        if nonlinear {
            // Harmonics are not reverberation: the tail model does not claim them (measured
            // +0.2 dB); it must not cost anything either.
            #expect(erleOn >= erleOff - 0.3)
        } else {
            // Measured +1.5 dB at strength 2 on this sparse 0.5 s room.
            #expect(erleOn >= erleOff + 1)
        }
    }

    @Test("double talk keeps the near end: SDR and level against the talker barely move")
    func keepsNearEndInDoubleTalk() throws {
        let rate = 16_000
        let s = Self.reverberantScenario(rate: rate, nearEnd: true)
        let off = try Self.run(s.mic, s.reference, rate: rate, strength: 0)
        let on = try Self.run(s.mic, s.reference, rate: rate, strength: 1)
        let talk = (s.mic.count - 5 * rate + rate / 2)..<s.mic.count
        let sdrOff = Self.scaleInvariantSDR(s.near, off, talk)
        let sdrOn = Self.scaleInvariantSDR(s.near, on, talk)
        let levelOff = Measure.levelDB(off, talk)
        let levelOn = Measure.levelDB(on, talk)
        print(
            String(
                format: "double talk: SI-SDR off %.2f dB, on %.2f dB; level off %.2f, on %.2f dBFS", sdrOff,
                sdrOn, levelOff, levelOn))
        #expect(sdrOn >= sdrOff - 0.5)
        #expect(abs(levelOn - levelOff) <= 0.5)
    }

    /// Scale-invariant SDR (dB) of `estimate` against `reference` over `range`.
    static func scaleInvariantSDR(
        _ reference: [Float], _ estimate: [Float], _ range: Range<Int>
    )
        -> Double
    {
        var rr = 0.0
        var re = 0.0
        for i in range {
            rr += Double(reference[i]) * Double(reference[i])
            re += Double(reference[i]) * Double(estimate[i])
        }
        let scale = re / rr
        var target = 0.0
        var rest = 0.0
        for i in range {
            let t = scale * Double(reference[i])
            target += t * t
            rest += (Double(estimate[i]) - t) * (Double(estimate[i]) - t)
        }
        return 10 * log10(target / rest)
    }
}
