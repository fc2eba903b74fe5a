import Testing

@testable import VoicePresets

/// Which keys need a restart (the web panel greys them), asked of the engine's own rule.
@Suite("restart-only keys")
struct RestartKeysTests {
    @Test(
        "restart-only keys: the engine's shape (chain, frame, canceller, high-pass); gains and effect parameters are live"
    )
    func restartKeys() {
        let restart = PresetEdit.restartKeys()
        for key in [
            "chain.order", "echo_canceller.enabled", "echo_canceller.tail_ms", "input.highpass_hz",
            "preprocessor.noise_suppress_db", "echo_canceller.speaker_curve",
        ] {
            #expect(restart.contains(key), "\(key)")
        }
        for key in [
            "output.gain_db", "input.gain_db", "monitor.master_db", "backing.level_db", "compressor.threshold_dbfs",
            "preprocessor.residual_suppression", "preprocessor.coherence_suppression",
            "preprocessor.clipping_coherence_suppression", "preprocessor.leftover_echo_suppression",
            "preprocessor.residual_echo_gate_db",
        ] {
            #expect(!restart.contains(key), "\(key)")
        }
    }
}
