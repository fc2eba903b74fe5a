/// How host blocks are re-framed for the echo canceller, and the latency that costs.
///
/// speexdsp processes fixed frames; JACK hands out blocks of its period. Each render cycle pushes
/// one block into input FIFOs, processes every whole frame available, and pops one block from an
/// output FIFO pre-filled with `framingLatency` zeros. After n blocks, n·B − F·⌊n·B/F⌋ samples
/// wait for a frame, at most F − gcd(B, F); so that pre-fill (0 when F divides B) is the smallest
/// that never underflows.
public struct FramePlan: Sendable, Equatable {
    /// Host block size in samples.
    public let blockSize: Int
    /// Canceller / preprocessor frame in samples.
    public let frameSize: Int
    /// Samples of delay the re-framing adds.
    public let framingLatency: Int

    /// True when blocks are at most half a frame (64 or 128 samples against 384-sample frames at
    /// 48 kHz): a cycle runs at most one frame, and the cycle after a frame never runs one (fewer
    /// than a block's samples are left, and two blocks are at most a frame). Work that need not
    /// share the frame's cycle waits for a frame-free one there (the delay estimator's steps, the
    /// post-filter's analysis).
    /// - Realtime: safe.
    public var leavesFrameFreeCycles: Bool {
        @inline(__always) @_noLocks get { 2 * blockSize <= frameSize }
    }

    /// Frames shorter than this cost too much CPU in speexdsp (seconds).
    static let shortestFrame = 0.005
    /// Frames longer than this make speexdsp's preprocessor latency and adaptation sluggish.
    static let longestFrame = 0.021

    /// Plans frames for `blockSize` at `sampleRate`; `frameMilliseconds` > 0 forces the frame.
    ///
    /// Automatic choice, by preference: the block itself when it is 5–21 ms (no added latency);
    /// a multiple of a short block (latency F − B); a divisor of a long block (no added latency);
    /// otherwise a 10 ms frame. Frames are kept 5-smooth (factors 2, 3, 5) so speexdsp's FFTs stay
    /// fast.
    public init(blockSize: Int, sampleRate: Int, frameMilliseconds: Float = 0) {
        precondition(blockSize > 0 && sampleRate > 0)
        self.blockSize = blockSize
        let frame: Int
        if frameMilliseconds > 0 {
            frame = max(16, Int((Double(frameMilliseconds) * Double(sampleRate) / 1000).rounded()))
        } else {
            frame = Self.automaticFrame(blockSize: blockSize, sampleRate: sampleRate)
        }
        frameSize = frame
        framingLatency = blockSize % frame == 0 ? 0 : frame - Self.gcd(blockSize, frame)
    }

    static func automaticFrame(blockSize b: Int, sampleRate: Int) -> Int {
        let lo = Int(Double(sampleRate) * shortestFrame)
        let hi = Int(Double(sampleRate) * longestFrame)
        let tenMs = nearestSmooth(sampleRate / 100)
        if b >= lo && b <= hi && isSmooth(b) { return b }
        if b < lo {
            let multiple = b * ((lo + b - 1) / b)
            if multiple <= hi && isSmooth(multiple) { return multiple }
            return tenMs
        }
        for parts in 2...max(2, b / max(lo, 1)) where b % parts == 0 {
            let f = b / parts
            if f < lo { break }
            if f <= hi && isSmooth(f) { return f }
        }
        return tenMs
    }

    /// True when `n` has no prime factor above 5.
    static func isSmooth(_ n: Int) -> Bool {
        var m = n
        for p in [2, 3, 5] { while m % p == 0 { m /= p } }
        return m == 1
    }

    /// The 5-smooth number closest to `n` (ties to the smaller).
    static func nearestSmooth(_ n: Int) -> Int {
        for d in 0... {
            if isSmooth(n - d) { return n - d }
            if isSmooth(n + d) { return n + d }
        }
        return n
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
