/// Scratch buffers the render cycle works in, allocated once for the largest block and frame.
///
/// A copyable bundle of pointers so the render cycle can hold it in a local; `EngineState`'s
/// deinit calls `deallocate()` exactly once.
///
/// - Realtime: the pointers are used on the process thread; `init` and `deallocate` are not.
struct EngineBuffers {
    /// Mic block after input conditioning (block size).
    let mic: UnsafeMutablePointer<Float>
    /// Reference blocks, left/right or mono in `referenceLeft` (block size).
    let referenceLeft: UnsafeMutablePointer<Float>
    let referenceRight: UnsafeMutablePointer<Float>
    /// Undelayed mono reference for the delay estimator (block size).
    let referenceMono: UnsafeMutablePointer<Float>
    /// One frame of mic, references and output (frame size).
    let frameMic: UnsafeMutablePointer<Float>
    let frameReferenceLeft: UnsafeMutablePointer<Float>
    let frameReferenceRight: UnsafeMutablePointer<Float>
    let frameOutput: UnsafeMutablePointer<Float>
    /// 16-bit frames for speexdsp; the reference is interleaved (frame size × speakers).
    let mic16: UnsafeMutablePointer<Int16>
    let reference16: UnsafeMutablePointer<Int16>
    let output16: UnsafeMutablePointer<Int16>
    /// The canceller's output before the preprocessor works on it in place, kept for an analysis
    /// that runs in the next cycle (see DeferredFrameAnalysis.swift).
    let cancelled16: UnsafeMutablePointer<Int16>

    init(blockSize: Int, frameSize: Int) {
        func shorts(_ n: Int) -> UnsafeMutablePointer<Int16> {
            let p = UnsafeMutablePointer<Int16>.allocate(capacity: n)
            p.initialize(repeating: 0, count: n)
            return p
        }
        mic = .zeroed(blockSize)
        referenceLeft = .zeroed(blockSize)
        referenceRight = .zeroed(blockSize)
        referenceMono = .zeroed(blockSize)
        frameMic = .zeroed(frameSize)
        frameReferenceLeft = .zeroed(frameSize)
        frameReferenceRight = .zeroed(frameSize)
        frameOutput = .zeroed(frameSize)
        mic16 = shorts(frameSize)
        reference16 = shorts(frameSize * 2)
        output16 = shorts(frameSize)
        cancelled16 = shorts(frameSize)
    }

    func deallocate() {
        for p in [
            mic, referenceLeft, referenceRight, referenceMono, frameMic, frameReferenceLeft,
            frameReferenceRight, frameOutput,
        ] { p.deallocate() }
        for p in [mic16, reference16, output16, cancelled16] { p.deallocate() }
    }
}
