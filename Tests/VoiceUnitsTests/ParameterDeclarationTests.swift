import Testing
import VoiceUnits

/// Each unit declares its parameters once (`parameters`): the shared `setParameter` clamps into
/// `values` by that declaration, and a parameter declared to glide glides for as long as it says.
@Suite("Parameter declarations")
struct ParameterDeclarationTests {
    static let rate = 48_000.0

    /// Sets every parameter of `unit` below, above and inside its range, and one index past the
    /// end; returns what went wrong, or nothing.
    static func clampFailures<U: VoiceUnit>(_ unit: U) -> [String] {
        var u = unit
        var failures: [String] = []
        for (i, p) in U.parameters.enumerated() {
            let middle = ((p.range.lowerBound + p.range.upperBound) / 2).rounded()
            for (value, expected) in [
                (p.range.upperBound + 1_000, p.range.upperBound), (p.range.lowerBound - 1_000, p.range.lowerBound),
                (middle, middle),
            ] {
                u.setParameter(i, value)
                if u.values[i] != expected { failures.append("\(U.self).\(p.id) = \(value): \(u.values[i])") }
            }
        }
        let before = (0..<U.parameters.count).map { u.values[$0] }
        u.setParameter(U.parameters.count, 1)
        u.setParameter(-1, 1)
        if (0..<U.parameters.count).map({ u.values[$0] }) != before { failures.append("\(U.self): index out of range") }
        return failures
    }

    @Test("setParameter clamps every parameter of every unit into its declared range, and ignores other indices")
    func clampsByDeclaration() {
        var failures = Self.clampFailures(Gain()) + Self.clampFailures(HighPassFilter())
        failures += Self.clampFailures(VoiceLeveller()) + Self.clampFailures(Equalizer())
        failures += Self.clampFailures(NoiseGate()) + Self.clampFailures(Compressor())
        failures += Self.clampFailures(DeEsser()) + Self.clampFailures(Limiter())
        failures += Self.clampFailures(Delay()) + Self.clampFailures(Reverb())
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("an enumerated parameter names each of its values 0...n")
    func labelsCoverTheRange() {
        let all =
            Equalizer.parameters + NoiseGate.parameters + Compressor.parameters + DeEsser.parameters
            + Limiter.parameters + Delay.parameters + Reverb.parameters
        let enumerated = all.filter { !$0.labels.isEmpty }
        #expect(enumerated.count == 4 + 1 + 7)  // the equaliser's 4 types and bypass, detector, 6 other bypasses
        for p in enumerated {
            #expect(p.range.lowerBound == 0 && Int(p.range.upperBound) + 1 == p.labels.count, "\(p.id)")
        }
    }

    /// Samples from a change of parameter `index` to `value` until the output of a steady 0.5 DC
    /// input stops moving (the last sample that differs from the one before by more than 1e-6).
    static func settling<U: VoiceUnit>(_ u: inout U, _ index: Int, _ value: Float) -> Int {
        u.prepare(ProcessSpec(sampleRate: rate, maximumBlockSize: 1))
        var x: Float = 0.5
        for _ in 0..<Int(rate) {  // one second to settle the envelopes
            x = 0.5
            u.process(&x, frames: 1)
        }
        u.setParameter(index, value)
        var last = x, lastChange = 0
        for n in 1...Int(rate / 10) {
            x = 0.5
            u.process(&x, frames: 1)
            if abs(x - last) > 1e-6 { lastChange = n }
            last = x
        }
        return lastChange
    }

    @Test(
        "a parameter declared to glide over T ms moves a steady signal for T ms, no less, no more",
        arguments: [
            ("gain.gain_db", -12 as Float), ("compressor.makeup_db", 12), ("compressor.bypass", 1),
            ("limiter.bypass", 1),
        ])
    func glidesAsDeclared(name: String, value: Float) throws {
        func check<U: VoiceUnit>(_ unit: inout U, _ id: String) throws {
            let index = try #require(U.parameters.firstIndex { $0.id == id })
            guard case .glide(let milliseconds) = U.parameters[index].smoothing else {
                Issue.record("\(name) is not declared to glide")
                return
            }
            let expected = Int(Double(milliseconds) * Self.rate / 1_000)
            let measured = Self.settling(&unit, index, value)
            #expect(abs(measured - expected) <= 1, "\(name): \(measured) samples, declared \(expected)")
        }
        let id = String(name.split(separator: ".")[1])
        switch name.split(separator: ".")[0] {
        case "gain":
            var gain = Gain()
            try check(&gain, id)
        case "compressor":
            var compressor = Compressor(thresholdDBFS: -20, ratio: 4)  // 0.5 DC: 14 dB over
            try check(&compressor, id)
        default:
            var limiter = Limiter(ceilingDBFS: -12)  // 0.5 DC: 6 dB over the ceiling
            try check(&limiter, id)
            limiter.deallocate()
        }
    }
}
