import CDeepFilter

/// One instance of a learned suppressor that works in fixed hops: a C function that takes one hop
/// in and gives one out (libDF's `df_process_frame`, or a test's stand-in), the state it is
/// called with, the hop and how late its output is.
///
/// - Realtime: `run` is called on the learned stage's worker thread, or, in an offline run
///   (`LearnedStage.Mode.synchronous`), on the offline driver's thread; never on a live process
///   thread. Made and freed on the main thread (`DeepFilterRuntime.makeModel`).
public struct LearnedModel: @unchecked Sendable {
    /// One hop in, one hop out; returns the model's local SNR estimate (dB), unused here.
    public typealias HopFunction =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) -> Float

    /// The hop function and the state it is called with.
    public let function: HopFunction
    public let state: OpaquePointer?
    /// Samples per hop.
    public let hop: Int
    /// Samples the model's output lags its input (its window and look-ahead).
    public let latency: Int

    /// A model of `hop`-sample hops whose output lags by `latency` samples. - Realtime: any thread.
    public init(function: HopFunction, state: OpaquePointer?, hop: Int, latency: Int) {
        self.function = function
        self.state = state
        self.hop = hop
        self.latency = latency
    }

    /// Runs one hop from `input` into `output`.
    ///
    /// - Realtime: the worker's thread, or the offline driver's (see the type).
    @_noLocks
    public func run(_ input: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        // Not real-time safe in general (libDF runs ONNX inference, which may allocate): the
        // worker thread calls it, and the offline driver, whose thread has no deadline.
        _ = _unsafePerformance { function(state, input, output) }
    }
}
