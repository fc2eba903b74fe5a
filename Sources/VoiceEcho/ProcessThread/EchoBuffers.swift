/// The canceller's frame buffers, allocated once for its frame size: two blocks, one of Float
/// frames (mic and references, filled by the host through `EchoFrameInputs`) and one of 16-bit
/// frames for speexdsp.
///
/// A copyable bundle of pointers so a frame step can hold it in a local;
/// `SpeexEchoCanceller`'s deinit calls `deallocate()` exactly once.
///
/// - Realtime: the pointers are used on the process thread; `init` and `deallocate` are not.
struct EchoBuffers {
    /// Three Float frames: mic, reference left (or mono), reference right.
    private let floats: UnsafeMutablePointer<Float>
    /// Five 16-bit frames: mic, the reference interleaved (two frames' room), the canceller's
    /// output, and that output kept for an analysis in the next cycle (see
    /// DeferredFrameAnalysis.swift) before the preprocessor works on it in place.
    private let shorts: UnsafeMutablePointer<Int16>
    private let frameSize: Int

    init(frameSize: Int) {
        self.frameSize = frameSize
        floats = .zeroed(3 * frameSize)
        shorts = .allocate(capacity: 5 * frameSize)
        shorts.initialize(repeating: 0, count: 5 * frameSize)
    }

    func deallocate() {
        floats.deallocate()
        shorts.deallocate()
    }

    var frameMic: UnsafeMutablePointer<Float> { @inline(__always) @_noLocks get { floats } }
    var frameReferenceLeft: UnsafeMutablePointer<Float> { @inline(__always) @_noLocks get { floats + frameSize } }
    var frameReferenceRight: UnsafeMutablePointer<Float> { @inline(__always) @_noLocks get { floats + 2 * frameSize } }
    var mic16: UnsafeMutablePointer<Int16> { @inline(__always) @_noLocks get { shorts } }
    var reference16: UnsafeMutablePointer<Int16> { @inline(__always) @_noLocks get { shorts + frameSize } }
    var output16: UnsafeMutablePointer<Int16> { @inline(__always) @_noLocks get { shorts + 3 * frameSize } }
    var cancelled16: UnsafeMutablePointer<Int16> { @inline(__always) @_noLocks get { shorts + 4 * frameSize } }
}
