extension LiveSnapshot {
    /// One effect-chain unit's meters: its output peak and, for a dynamics unit (gate,
    /// compressor, de-esser, limiter), the gain it takes off.
    ///
    /// - Realtime: never; any thread (a plain value).
    public struct UnitMeter: Sendable, Equatable {
        /// The unit's name in `chain.order` (`compressor`, a plugin's section).
        public var unit: String
        /// Output peak with a slow release (about 20 dB per second), dBFS; -infinity for silence.
        public var peak: Double
        /// Gain reduction now, dB (≥ 0; 0 while bypassed); nil for a unit that does not reduce gain.
        public var reductionDB: Double?

        public init(unit: String, peak: Double = -.infinity, reductionDB: Double? = nil) {
            self.unit = unit
            self.peak = peak
            self.reductionDB = reductionDB
        }
    }
}
