import Foundation

/// A second-order Butterworth high-pass (a biquad, RBJ cookbook form) that removes rumble,
/// handling noise and DC below the voice. A cutoff of 0 Hz bypasses it.
public struct HighPassFilter: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(
            id: "cutoff_hz", name: "Cutoff", range: 0...1000, defaultValue: 80, unit: .hertz)
    ]

    public var values = ParameterValues(defaults: HighPassFilter.parameters)
    private var sampleRate: Double = 48_000
    private var coefficients = BiquadCoefficients.identity
    private var state = BiquadState()

    /// A filter at `cutoffHz` (0 = bypass).
    public init(cutoffHz: Float = 80) {
        store(0, cutoffHz)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        parameterChanged(0, from: values[0])
        state = BiquadState()
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) {
        coefficients = Self.design(cutoff: Double(values[0]), sampleRate: sampleRate)
    }

    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard !coefficients.isIdentity else { return }
        state.run(coefficients, buffer, frames)
    }

    public mutating func reset() { state = BiquadState() }

    /// Butterworth (Q = 1/√2) high-pass coefficients; identity when the cutoff is 0 or at/above
    /// Nyquist.
    static func design(cutoff: Double, sampleRate: Double) -> BiquadCoefficients {
        guard cutoff > 0, cutoff < sampleRate / 2 else { return .identity }
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let q = 1 / 2.0.squareRoot()  // Butterworth
        let alpha = sin(w0) / (2 * q)
        let c = cos(w0)
        let a0 = 1 + alpha
        return BiquadCoefficients(
            b0: Float((1 + c) / 2 / a0), b1: Float(-(1 + c) / a0), b2: Float((1 + c) / 2 / a0),
            a1: Float(-2 * c / a0), a2: Float((1 - alpha) / a0))
    }
}

/// Normalised biquad coefficients (a0 = 1).
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float

    /// The pass-through filter.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// True for the pass-through filter.
    public var isIdentity: Bool { self == .identity }

    public init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }
}

/// Memory of a biquad in transposed direct form II (good numerical behaviour in Float).
public struct BiquadState: Sendable {
    private var z1: Float = 0
    private var z2: Float = 0

    public init() {}

    /// Filters `frames` samples in place. - Realtime: safe.
    @inline(__always) @_noLocks
    public mutating func run(
        _ c: BiquadCoefficients, _ buffer: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
        var z1 = self.z1, z2 = self.z2
        for i in 0..<frames {
            let x = buffer[i]
            let y = c.b0 * x + z1
            z1 = c.b1 * x - c.a1 * y + z2
            z2 = c.b2 * x - c.a2 * y
            buffer[i] = y
        }
        // Flush denormals: a silent input would otherwise decay into slow subnormal arithmetic.
        self.z1 = abs(z1) < 1e-20 ? 0 : z1
        self.z2 = abs(z2) < 1e-20 ? 0 : z2
    }
}
