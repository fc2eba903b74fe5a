/// Scratch buffers the render cycle works in, allocated once for the largest block and frame
/// (the canceller's own frame buffers are in `SpeexEchoCanceller`).
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
    /// One frame of output (frame size).
    let frameOutput: UnsafeMutablePointer<Float>

    init(blockSize: Int, frameSize: Int) {
        mic = .zeroed(blockSize)
        referenceLeft = .zeroed(blockSize)
        referenceRight = .zeroed(blockSize)
        referenceMono = .zeroed(blockSize)
        frameOutput = .zeroed(frameSize)
    }

    func deallocate() {
        for p in [mic, referenceLeft, referenceRight, referenceMono, frameOutput] { p.deallocate() }
    }
}
