extension SpeexEchoCanceller {
    /// Applies a live parameter change; the post-filter and the gate glide to it.
    /// - Realtime: safe.
    @_noLocks
    public mutating func set(_ parameter: EchoParameter, _ value: Float) {
        switch parameter {
        case .residualSuppression:
            postFilter.setStrength(value)
        case .coherenceSuppression:
            coherenceDrive = value
            applyCoherenceDrive()
        case .clippingCoherenceSuppression:
            clippingCoherenceDrive = value
            applyCoherenceDrive()
        case .leftoverEchoSuppression:
            postFilter.setLeftoverExponent(value)
        case .residualEchoGate:
            // A gain in 0...1 (the key's −30...0 dB); NaN leaves the gate open.
            residualGateGain = value >= 0 ? min(value, 1) : 1
        }
    }
}
