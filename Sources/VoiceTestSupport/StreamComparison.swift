/// How a stream's decoded audio compares with the local copy of the same tap: durations, where
/// a second of the decoded audio is found in the local copy, how well it correlates there, and
/// the levels of three aligned seconds.
public struct StreamComparison: CustomStringConvertible {
    public let decodedSeconds: Double
    public let localSeconds: Double
    /// Normalised cross-correlation of one decoded second at its best lag in the local copy.
    public let correlation: Double
    public let decodedLevelDB: Double
    public let localLevelDB: Double
    /// Where the decoded audio starts in the local copy, in seconds: how late the listener joined
    /// (a server without a burst on connect sends a late listener nothing of the past).
    public let joinSeconds: Double
    /// The local copy's seconds from the listener's join to its end that the decoded audio lacks:
    /// near 0 when nothing was lost on air after the join.
    public var missingAfterJoinSeconds: Double { localSeconds - joinSeconds - decodedSeconds }

    /// Compares `decoded` with `local` (both mono at `rate`, each at least 3 s long).
    public init(decoded: [Float], local: [Float], rate: Int) {
        decodedSeconds = Double(decoded.count) / Double(rate)
        localSeconds = Double(local.count) / Double(rate)
        let probeStart = decoded.count / 2
        let probe = Array(decoded[probeStart..<min(decoded.count, probeStart + rate)])
        let (lag, c) = Self.bestMatch(of: probe, in: local)
        correlation = c
        let offset = lag - probeStart
        joinSeconds = Double(offset) / Double(rate)
        let span = max(0, probeStart - rate)..<min(decoded.count, probeStart + 2 * rate)
        let localSpan = max(0, span.lowerBound + offset)..<min(local.count, span.upperBound + offset)
        decodedLevelDB = Measure.levelDB(decoded, span)
        localLevelDB = Measure.levelDB(local, localSpan)
    }

    public var description: String {
        "decoded \(Self.format(decodedSeconds)) s against \(Self.format(localSeconds)) s local; level \(Self.format(decodedLevelDB)) against \(Self.format(localLevelDB)) dBFS; correlation \(Self.format(correlation, digits: 3)); joined at \(Self.format(joinSeconds)) s"
    }

    private static func format(_ x: Double, digits: Int = 2) -> String {
        let scale = [1.0, 10, 100, 1000][digits]
        return "\((x * scale).rounded() / scale)"
    }

    /// Where `probe` best matches in `signal` (normalised correlation), searching every 8th
    /// lag on every 8th sample first, then refining around the best one.
    public static func bestMatch(of probe: [Float], in signal: [Float]) -> (lag: Int, correlation: Double) {
        func correlation(_ lag: Int, step: Int) -> Double {
            var dot = 0.0, a = 0.0, b = 0.0
            var i = 0
            while i < probe.count {
                let x = Double(probe[i]), y = Double(signal[lag + i])
                dot += x * y
                a += x * x
                b += y * y
                i += step
            }
            return a > 0 && b > 0 ? dot / (a * b).squareRoot() : 0
        }
        let last = signal.count - probe.count
        guard last > 0 else { return (0, 0) }
        var best = (lag: 0, correlation: -1.0)
        for lag in stride(from: 0, to: last, by: 8) {
            let c = correlation(lag, step: 8)
            if c > best.correlation { best = (lag, c) }
        }
        var refined = (lag: best.lag, correlation: -1.0)
        for lag in max(0, best.lag - 8)...min(last - 1, best.lag + 8) {
            let c = correlation(lag, step: 1)
            if c > refined.correlation { refined = (lag, c) }
        }
        return refined
    }
}
