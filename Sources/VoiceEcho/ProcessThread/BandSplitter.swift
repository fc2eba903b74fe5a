import Foundation

/// Splits a signal into frequency bands that add back up to it exactly, with no added latency.
///
/// A cascade of complementary splits: band 0 is a 2nd-order Butterworth low-pass of the input at
/// the first edge, the rest (input − band 0) goes on to the next edge, and the last band is what
/// remains. The bands telescope, so their sum is the input sample for sample (with every gain at
/// 1 the post-filter is transparent); no block, no look-ahead. The price is gentle band skirts,
/// which is fine for suppression gains that change by band.
///
/// - Realtime: `split` is safe; `init` allocates, `deallocate` frees.
struct BandSplitter {
    /// Number of bands (splits + 1).
    let bands: Int
    /// b0, b1, b2, a1, a2 per split.
    private let coefficients: UnsafeMutablePointer<Float>
    /// Transposed direct form II state, two per split.
    private let state: UnsafeMutablePointer<Float>
    /// The state after the last `splitFiveAlongside` that ran this splitter as its second
    /// lane, until `commitPending` makes it the state (see `splitFiveAlongside`).
    private let pending: UnsafeMutablePointer<Float>

    /// Bands split at `edges` (Hz, ascending; edges at or above 0.45·`sampleRate` are dropped).
    init(edges: [Double], sampleRate: Int) {
        let usable = edges.filter { $0 < 0.45 * Double(sampleRate) }
        bands = usable.count + 1
        coefficients = .allocate(capacity: max(1, usable.count) * 5)
        state = .zeroed(max(1, usable.count) * 2)
        pending = .zeroed(max(1, usable.count) * 2)
        for (s, f) in usable.enumerated() {
            // RBJ cookbook low-pass, Q = 1/√2 (Butterworth).
            let w0 = 2 * Double.pi * f / Double(sampleRate)
            let alpha = sin(w0) / (2 * 0.5.squareRoot())
            let c = cos(w0)
            let a0 = 1 + alpha
            let b = (1 - c) / 2
            let k = coefficients + 5 * s
            k[0] = Float(b / a0)
            k[1] = Float(2 * b / a0)
            k[2] = Float(b / a0)
            k[3] = Float(-2 * c / a0)
            k[4] = Float((1 - alpha) / a0)
        }
    }

    /// Frees the tables; call exactly once.
    func deallocate() {
        coefficients.deallocate()
        state.deallocate()
        pending.deallocate()
    }

    /// Clears the filters' memory.
    /// - Realtime: safe.
    @_noLocks
    func reset() {
        for i in 0..<(2 * max(1, bands - 1)) { state[i] = 0 }
    }

    /// Splits `n` samples of `input` into `bands` rows of `output` (row b at `output + b·stride`)
    /// and adds each row's energy (sum of squares) to `energy[b]`.
    ///
    /// With five splits (the post-filter's edges at 16 kHz and above) the splits run side by side,
    /// sample by sample (`splitFive`); otherwise one after another over the whole block. Both do
    /// the same operations in the same order on every value, so they agree to the bit.
    ///
    /// - Realtime: safe.
    @_noLocks
    func split(
        _ input: UnsafePointer<Float>, _ n: Int, into output: UnsafeMutablePointer<Float>, stride: Int,
        energy: UnsafeMutablePointer<Float>
    ) {
        if bands == 6 {
            splitFive(input, n, into: output, stride: stride, energy: energy)
        } else {
            splitInTurn(input, n, into: output, stride: stride, energy: energy)
        }
    }

    /// `split`, one split after another over the whole block: each split's recursion waits on
    /// its own previous sample, so a split costs the recursion's latency per sample.
    ///
    /// - Realtime: safe.
    @_noLocks
    func splitInTurn(
        _ input: UnsafePointer<Float>, _ n: Int, into output: UnsafeMutablePointer<Float>, stride: Int,
        energy: UnsafeMutablePointer<Float>
    ) {
        let rest = output + (bands - 1) * stride
        for i in 0..<n { rest[i] = input[i] }
        for s in 0..<(bands - 1) {
            let k = coefficients + 5 * s
            let b0 = k[0]
            let b1 = k[1]
            let b2 = k[2]
            let a1 = k[3]
            let a2 = k[4]
            var z1 = state[2 * s]
            var z2 = state[2 * s + 1]
            let row = output + s * stride
            var e: Float = 0
            for i in 0..<n {
                let x = rest[i]
                let y = b0 * x + z1
                z1 = b1 * x - a1 * y + z2
                z2 = b2 * x - a2 * y
                row[i] = y
                rest[i] = x - y
                e += y * y
            }
            // Flush denormals: a filter ringing down in silence would otherwise slow to a crawl.
            state[2 * s] = abs(z1) < 1e-25 ? 0 : z1
            state[2 * s + 1] = abs(z2) < 1e-25 ? 0 : z2
            energy[s] += e
        }
        var e: Float = 0
        for i in 0..<n { e += rest[i] * rest[i] }
        energy[bands - 1] += e
    }

    /// `split` for exactly five splits, all five in one pass over the samples: sample i goes
    /// through the five sections in turn, and the five recursions (each waiting only on its own
    /// previous sample) overlap in the processor, where one after another they would each wait
    /// out their latency sample by sample. The post-filter splits every frame's output (and its
    /// comfort noise) this way; at 48 kHz that was its largest single cost.
    ///
    /// - Realtime: safe.
    @_noLocks
    private func splitFive(
        _ input: UnsafePointer<Float>, _ n: Int, into output: UnsafeMutablePointer<Float>, stride: Int,
        energy: UnsafeMutablePointer<Float>
    ) {
        var s0 = Section<Float>(coefficients, state, 0)
        var s1 = Section<Float>(coefficients, state, 1)
        var s2 = Section<Float>(coefficients, state, 2)
        var s3 = Section<Float>(coefficients, state, 3)
        var s4 = Section<Float>(coefficients, state, 4)
        let r0 = output, r1 = output + stride, r2 = output + 2 * stride, r3 = output + 3 * stride
        let r4 = output + 4 * stride, rest = output + 5 * stride
        var e: Float = 0
        for i in 0..<n {
            var x = input[i]
            r0[i] = s0.step(&x)
            r1[i] = s1.step(&x)
            r2[i] = s2.step(&x)
            r3[i] = s3.step(&x)
            r4[i] = s4.step(&x)
            rest[i] = x
            e += x * x
        }
        s0.store(state, energy, 0)
        s1.store(state, energy, 1)
        s2.store(state, energy, 2)
        s3.store(state, energy, 3)
        s4.store(state, energy, 4)
        energy[5] += e
    }

    /// One split's filter while `splitFive` runs: coefficients and state in registers.
    /// `split` of `input` through this splitter and of `second` through `other`, both with
    /// exactly five splits and the same edges, in one pass: the two cascades run in the two
    /// lanes of SIMD2 operations, each lane doing `splitFive`'s operations on its own values
    /// (the same numbers). Rows go to `output` and `secondOutput` at stride `n`.
    ///
    /// `other`'s state is only read: its state after the block waits in `other`'s pending
    /// state, and `other.commitPending()` adopts it. A caller that may not need the second
    /// split (the post-filter's comfort noise) runs it alongside for free and commits only
    /// when it uses it, so `other` then ran exactly the blocks it was used for.
    ///
    /// - Realtime: safe.
    @_noLocks
    func splitFiveAlongside(
        _ input: UnsafePointer<Float>, _ n: Int, into output: UnsafeMutablePointer<Float>,
        energy: UnsafeMutablePointer<Float>, other: BandSplitter, second: UnsafePointer<Float>,
        into secondOutput: UnsafeMutablePointer<Float>, energy secondEnergy: UnsafeMutablePointer<Float>
    ) {
        var s0 = Section<SIMD2<Float>>(coefficients, state, other.state, 0)
        var s1 = Section<SIMD2<Float>>(coefficients, state, other.state, 1)
        var s2 = Section<SIMD2<Float>>(coefficients, state, other.state, 2)
        var s3 = Section<SIMD2<Float>>(coefficients, state, other.state, 3)
        var s4 = Section<SIMD2<Float>>(coefficients, state, other.state, 4)
        var e = SIMD2<Float>()
        for i in 0..<n {
            var x = SIMD2<Float>(input[i], second[i])
            let y0 = s0.step(&x)
            let y1 = s1.step(&x)
            let y2 = s2.step(&x)
            let y3 = s3.step(&x)
            let y4 = s4.step(&x)
            (output[i], secondOutput[i]) = (y0[0], y0[1])
            (output[n + i], secondOutput[n + i]) = (y1[0], y1[1])
            (output[2 * n + i], secondOutput[2 * n + i]) = (y2[0], y2[1])
            (output[3 * n + i], secondOutput[3 * n + i]) = (y3[0], y3[1])
            (output[4 * n + i], secondOutput[4 * n + i]) = (y4[0], y4[1])
            (output[5 * n + i], secondOutput[5 * n + i]) = (x[0], x[1])
            e += x * x
        }
        s0.store(state, energy, other.pending, secondEnergy, 0)
        s1.store(state, energy, other.pending, secondEnergy, 1)
        s2.store(state, energy, other.pending, secondEnergy, 2)
        s3.store(state, energy, other.pending, secondEnergy, 3)
        s4.store(state, energy, other.pending, secondEnergy, 4)
        energy[5] += e[0]
        secondEnergy[5] += e[1]
    }

    /// Makes the state a `splitFiveAlongside` left pending the splitter's state.
    /// - Realtime: safe.
    @_noLocks
    func commitPending() {
        for i in 0..<(2 * max(1, bands - 1)) { state[i] = pending[i] }
    }

    /// One split's filter, on one cascade (`Float`) or two side by side (`SIMD2<Float>`, lane by
    /// lane the same operations).
    fileprivate struct Section<Lanes: SplitterLanes> {
        let b0, b1, b2, a1, a2: Lanes
        var z1, z2: Lanes
        /// Sum of squares of the band so far.
        var energy = Lanes.zero

        /// Takes `x`, returns its band sample and leaves the rest (x − band) in `x`: the same
        /// operations as `splitInTurn`'s inner loop.
        @inline(__always)
        mutating func step(_ x: inout Lanes) -> Lanes {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            x = x - y
            energy += y * y
            return y
        }
    }
}

/// What a band split computes with: one sample (`Float`) or two cascades' samples side by side.
private protocol SplitterLanes {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func += (lhs: inout Self, rhs: Self)
}

extension Float: SplitterLanes {}
extension SIMD2: SplitterLanes where Scalar == Float {}

extension BandSplitter.Section where Lanes == Float {
    /// Split `index`'s coefficients and state.
    @inline(__always)
    init(_ coefficients: UnsafeMutablePointer<Float>, _ state: UnsafeMutablePointer<Float>, _ index: Int) {
        let k = coefficients + 5 * index
        (b0, b1, b2, a1, a2) = (k[0], k[1], k[2], k[3], k[4])
        (z1, z2) = (state[2 * index], state[2 * index + 1])
    }

    /// Keeps the state for the next block, denormals flushed, and adds the band's energy (as
    /// `splitInTurn`).
    @inline(__always)
    func store(_ state: UnsafeMutablePointer<Float>, _ energies: UnsafeMutablePointer<Float>, _ index: Int) {
        state[2 * index] = abs(z1) < 1e-25 ? 0 : z1
        state[2 * index + 1] = abs(z2) < 1e-25 ? 0 : z2
        energies[index] += energy
    }
}

extension BandSplitter.Section where Lanes == SIMD2<Float> {
    /// Split `index`'s coefficients (both lanes) and its state in `first` (lane 0) and `second`.
    @inline(__always)
    init(
        _ coefficients: UnsafeMutablePointer<Float>, _ first: UnsafeMutablePointer<Float>,
        _ second: UnsafeMutablePointer<Float>, _ index: Int
    ) {
        let k = coefficients + 5 * index
        (b0, b1, b2) = (Lanes(repeating: k[0]), Lanes(repeating: k[1]), Lanes(repeating: k[2]))
        (a1, a2) = (Lanes(repeating: k[3]), Lanes(repeating: k[4]))
        z1 = Lanes(first[2 * index], second[2 * index])
        z2 = Lanes(first[2 * index + 1], second[2 * index + 1])
    }

    /// `store` for each lane: lane 0 into `first`, lane 1 into `second`.
    @inline(__always)
    func store(
        _ first: UnsafeMutablePointer<Float>, _ firstEnergies: UnsafeMutablePointer<Float>,
        _ second: UnsafeMutablePointer<Float>, _ secondEnergies: UnsafeMutablePointer<Float>, _ index: Int
    ) {
        first[2 * index] = abs(z1[0]) < 1e-25 ? 0 : z1[0]
        first[2 * index + 1] = abs(z2[0]) < 1e-25 ? 0 : z2[0]
        second[2 * index] = abs(z1[1]) < 1e-25 ? 0 : z1[1]
        second[2 * index + 1] = abs(z2[1]) < 1e-25 ? 0 : z2[1]
        firstEnergies[index] += energy[0]
        secondEnergies[index] += energy[1]
    }
}
