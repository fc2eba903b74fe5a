/// One cycle's audio buffers, as a driver hands them to `CycleState.render`: three inputs, five
/// outputs, `frames` samples each (32-bit float, JACK's layout).
///
/// A plain struct of pointers, so any driver can fill it: JACK from its port buffers, the
/// offline driver from its file blocks, the real-time tests from arrays. The outputs are written
/// whole every cycle (silence where there is nothing to play); `speakerLeft/Right` are then also
/// read back as the echo reference.
///
/// - Realtime: safe (a POD value).
public struct CycleIO: BitwiseCopyable {
    public var mic: UnsafePointer<Float>
    public var farLeft: UnsafePointer<Float>
    public var farRight: UnsafePointer<Float>
    public var voice: UnsafeMutablePointer<Float>
    public var speakerLeft: UnsafeMutablePointer<Float>
    public var speakerRight: UnsafeMutablePointer<Float>
    public var monitorLeft: UnsafeMutablePointer<Float>
    public var monitorRight: UnsafeMutablePointer<Float>
    /// Samples in every buffer this cycle.
    public var frames: Int
    /// Frames of the driver's timeline that passed since the previous cycle without being
    /// rendered (the process was stopped or held up past a whole period); recordings pad them
    /// with silence. 0 normally.
    public var framesMissed: Int
    /// True while the driver runs faster than real time (JACK's freewheel): no deadline holds,
    /// so the cycle waits for its consumers instead of dropping (`waitForConsumers`).
    public var freewheeling: Bool
    /// The driver's transport this cycle (JACK's): whether it rolls, and its frame at the cycle's
    /// first sample. Stopped at 0 for drivers without one.
    public var transport: TransportPosition

    @inlinable @_noLocks
    public init(
        mic: UnsafePointer<Float>, farLeft: UnsafePointer<Float>, farRight: UnsafePointer<Float>,
        voice: UnsafeMutablePointer<Float>, speakerLeft: UnsafeMutablePointer<Float>,
        speakerRight: UnsafeMutablePointer<Float>, monitorLeft: UnsafeMutablePointer<Float>,
        monitorRight: UnsafeMutablePointer<Float>, frames: Int, framesMissed: Int = 0, freewheeling: Bool = false,
        transport: TransportPosition = TransportPosition()
    ) {
        self.mic = mic
        self.farLeft = farLeft
        self.farRight = farRight
        self.voice = voice
        self.speakerLeft = speakerLeft
        self.speakerRight = speakerRight
        self.monitorLeft = monitorLeft
        self.monitorRight = monitorRight
        self.frames = frames
        self.framesMissed = framesMissed
        self.freewheeling = freewheeling
        self.transport = transport
    }

    /// `frames` samples of every buffer from `offset` on (a piece of this cycle); the piece
    /// carries the missed frames only when it is the first. - Realtime: safe.
    @inline(__always) @_noLocks
    public func slice(from offset: Int, frames: Int) -> CycleIO {
        CycleIO(
            mic: mic + offset, farLeft: farLeft + offset, farRight: farRight + offset, voice: voice + offset,
            speakerLeft: speakerLeft + offset, speakerRight: speakerRight + offset, monitorLeft: monitorLeft + offset,
            monitorRight: monitorRight + offset, frames: frames, framesMissed: offset == 0 ? framesMissed : 0,
            freewheeling: freewheeling,
            transport: TransportPosition(
                rolling: transport.rolling, frame: transport.frame + (transport.rolling ? offset : 0)))
    }
}

/// Where a driver's transport stands at a cycle's first sample. - Realtime: safe (a POD value).
public struct TransportPosition: BitwiseCopyable, Sendable {
    /// True while the transport rolls.
    public var rolling: Bool
    /// The transport frame of the cycle's first sample.
    public var frame: Int

    @inlinable @_noLocks
    public init(rolling: Bool = false, frame: Int = 0) {
        self.rolling = rolling
        self.frame = frame
    }

}
