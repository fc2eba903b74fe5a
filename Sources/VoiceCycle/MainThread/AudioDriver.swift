/// What moves audio for a session, seen from the session: JACK live, files offline, and room for
/// a third (another audio API, a network source).
///
/// A driver knows its own I/O only: buffers, periods, latency, its server's notifications. It
/// knows nothing of presets, recordings or backing tracks. It calls `client.cycle.pointee.render`
/// once per cycle from its process thread (the offline driver: from the thread that called
/// `start`, until its input ends) and forwards block-size changes to `client`.
///
/// - Realtime: never; main thread (the render calls happen on the driver's own thread).
public protocol AudioDriver: AnyObject {
    /// Samples per second.
    var sampleRate: Int { get }
    /// Frames per cycle now.
    var blockSize: Int { get }
    /// Starts rendering `client`'s cycle. Throws when the driver cannot start.
    func start(_ client: any DriverClient) throws(DriverError)
    /// Stops rendering; once it returns no thread of the driver touches the cycle. Idempotent.
    func stop()
}

/// The session side a driver drives: the cycle its process thread renders, and where it reports
/// a new block size.
///
/// - Realtime: `cycle` is read once at start; `blockSizeChanged` and `freewheelChanged` are called on the driver's
///   notification thread (never its process thread) and may allocate.
public protocol DriverClient: AnyObject, Sendable {
    /// The cycle to render, at a stable address for the client's lifetime.
    var cycle: UnsafeMutablePointer<CycleState> { get }
    /// The driver's cycles are `frames` long from now on. Returns at once: the client follows
    /// on its own thread and renders the new cycles with its current engine until then.
    func blockSizeChanged(to frames: Int)
    /// The driver starts (true) or stops (false) running faster than real time (JACK's
    /// freewheel). Called on its notification thread, before the first such cycle and after the
    /// last; the cycles themselves see `CycleIO.freewheeling`.
    func freewheelChanged(_ freewheeling: Bool)
}

/// Why a driver could not open or start, in words for the user.
public struct DriverError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
