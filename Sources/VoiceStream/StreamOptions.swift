/// How a stream buffers, retries and gives up. The defaults suit a live show; tests shorten the
/// times.
///
/// - Realtime: never.
public struct StreamOptions: Sendable {
    /// Seconds of audio the block buffer between the producer and the sender holds.
    public var bufferSeconds: Double = 10
    /// Frames per block handed over (1024 = 21 ms at 48 kHz: small, so the encoder is fed evenly).
    public var blockFrames = 1024
    /// First reconnect delay, in seconds; it doubles per failed attempt up to `maximumBackoff`.
    public var initialBackoff: Double = 1
    public var maximumBackoff: Double = 30
    /// Audio seconds libshout's queue may hold before new audio is dropped (and counted as lost on
    /// air) instead of queued: a slow network gets the stream late by at most this much.
    public var maximumQueueSeconds: Double = 2
    /// Seconds the queue may stay over that limit before the connection is taken as dead and
    /// made again.
    public var stallTimeout: Double = 30
    /// Seconds a connection attempt may take.
    public var connectTimeout: Double = 10
    /// Refused logins in a row before the stream stops (a reconnect can be refused while the
    /// server still holds the old source on the mount).
    public var refusalsBeforeStop = 3
    /// Seconds the end of the stream may take to leave the queue when stopping.
    public var drainTimeout: Double = 3

    public init() {}

    /// The delay before reconnect attempt `attempt` (1, 2, 3...): 1, 2, 4 ... 30 s by default.
    public func backoff(attempt: Int) -> Double {
        min(maximumBackoff, initialBackoff * Double(1 << min(max(attempt - 1, 0), 20)))
    }
}
