import CJack
import VoiceEngine
import VoiceRT

/// What the client and its engine report, for the status line.
public struct JACKStatus: Sendable {
    public var health: HealthFigures
    /// xruns reported by JACK since activation.
    public var xruns: Int
    /// JACK's DSP load estimate, percent of the period.
    public var cpuLoad: Float
    public var sampleRate: Int
    public var blockSize: Int
    /// Samples voice_out lags mic_in.
    public var latency: Int
    /// Cycles voice_out was silent because no engine fitted (buffer-size change in progress).
    public var silentCycles: Int
    /// Why the last buffer-size change could not be followed, if it could not.
    public var problem: String?
    /// How long the process callback takes.
    public var cycle: CycleFigures
}

extension JACKClient {
    /// The current figures. - Realtime: never; main thread.
    public func status() -> JACKStatus {
        let (health, blockSize, latency) = engine.withLock { ($0.engine.health(), $0.engine.plan.blockSize, $0.engine.latency) }
        let c = context
        return JACKStatus(
            health: health, xruns: c.pointee.xruns.load(ordering: .relaxed), cpuLoad: jack_cpu_load(client),
            sampleRate: sampleRate, blockSize: blockSize, latency: latency,
            silentCycles: c.pointee.silentCycles.load(ordering: .relaxed)
                + c.pointee.oversizedCycles.load(ordering: .relaxed),
            problem: bufferSizeProblem.withLock { $0 }, cycle: c.pointee.timing.figures())
    }
}
