/// How a unit will be run: the stream's rate, the block lengths its caller guarantees and how
/// the worker extension's work is done.
public struct LV2Configuration: Sendable, Equatable {
    /// How scheduled work (LV2 worker extension) runs.
    public enum WorkerMode: Sendable, Equatable {
        /// A worker thread, fed and answered through lock-free rings: for the live process thread.
        case threaded
        /// Right away, in the calling thread: for offline runs, where nothing must wait for a
        /// thread and results must not depend on scheduling.
        case synchronous
    }

    /// Samples per second.
    public var sampleRate: Double
    /// The largest `frames` one `process` call passes; longer calls are split into such blocks.
    public var maximumBlockSize: Int
    /// True when every `process` call passes exactly `maximumBlockSize` frames (a JACK period, an
    /// offline `--block`): then the buf-size fixedBlockLength feature is offered too.
    public var fixedBlockSize: Bool
    public var worker: WorkerMode

    public init(
        sampleRate: Double, maximumBlockSize: Int, fixedBlockSize: Bool = false,
        worker: WorkerMode = .threaded
    ) {
        self.sampleRate = sampleRate
        self.maximumBlockSize = maximumBlockSize
        self.fixedBlockSize = fixedBlockSize
        self.worker = worker
    }

    /// The feature URIs a plugin may require and still be run with this configuration. The lv2core
    /// properties some plugins list as features (hardRTCapable, inPlaceBroken, isLive) need nothing
    /// from the host.
    public var supportedFeatures: Set<String> {
        var s: Set<String> = [
            LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.options, LV2URI.boundedBlockLength, LV2URI.log,
            LV2URI.workerSchedule, LV2URI.loadDefaultState, LV2URI.hardRTCapable, LV2URI.inPlaceBroken,
            LV2URI.isLive,
        ]
        if fixedBlockSize { s.insert(LV2URI.fixedBlockLength) }
        return s
    }

    /// Bytes of each atom sequence buffer (the buf-size sequenceSize option) when no port asks
    /// for more.
    static let defaultSequenceSize = 8_192
}
