/// The canceller's frame buffers, allocated once for its frame size.
///
/// A copyable bundle of pointers so a frame step can hold it in a local;
/// `SpeexEchoCanceller`'s deinit calls `deallocate()` exactly once.
///
/// - Realtime: the pointers are used on the process thread; `init` and `deallocate` are not.
struct EchoBuffers {
    /// One frame of mic and references, filled by the host (`EchoFrameInputs`).
    let frameMic: UnsafeMutablePointer<Float>
    let frameReferenceLeft: UnsafeMutablePointer<Float>
    let frameReferenceRight: UnsafeMutablePointer<Float>
    /// 16-bit frames for speexdsp; the reference is interleaved (frame size × speakers).
    let mic16: UnsafeMutablePointer<Int16>
    let reference16: UnsafeMutablePointer<Int16>
    let output16: UnsafeMutablePointer<Int16>
    /// The canceller's output before the preprocessor works on it in place, kept for an analysis
    /// that runs in the next cycle (see DeferredFrameAnalysis.swift).
    let cancelled16: UnsafeMutablePointer<Int16>

    init(frameSize: Int) {
        func shorts(_ n: Int) -> UnsafeMutablePointer<Int16> {
            let p = UnsafeMutablePointer<Int16>.allocate(capacity: n)
            p.initialize(repeating: 0, count: n)
            return p
        }
        frameMic = .zeroed(frameSize)
        frameReferenceLeft = .zeroed(frameSize)
        frameReferenceRight = .zeroed(frameSize)
        mic16 = shorts(frameSize)
        reference16 = shorts(frameSize * 2)
        output16 = shorts(frameSize)
        cancelled16 = shorts(frameSize)
    }

    func deallocate() {
        for p in [frameMic, frameReferenceLeft, frameReferenceRight] { p.deallocate() }
        for p in [mic16, reference16, output16, cancelled16] { p.deallocate() }
    }
}
