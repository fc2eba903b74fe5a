import CLilv
import Synchronization

/// Everything the process thread touches for one plugin instance, allocated once before the
/// instance runs: the instance, the buffers its ports are connected to, the control values and
/// the worker channel. A plain struct behind a pointer (no class, no array): `LV2Unit.process`
/// reads it without reference counting. The owning `LV2Instance` frees it after the instance.
struct LV2ProcessState {
    let instance: UnsafeMutablePointer<LilvInstance>
    /// Largest block one run() gets, in samples.
    let maximumFrames: Int
    /// The mono voice copied in; every audio input port reads it.
    let input: UnsafeMutablePointer<Float>
    /// One buffer of `maximumFrames` per audio output port (1 or 2), back to back.
    let outputs: UnsafeMutablePointer<Float>
    let outputCount: Int
    /// One audio input, one output, and no lv2:inPlaceBroken: both ports are connected to the
    /// caller's buffer for each block instead of copying through `input` and `outputs`.
    let inPlace: Bool
    /// Port indices of the first audio input and output.
    let firstAudioInput: Int
    let firstAudioOutput: Int
    /// One float per port, indexed by port index: control ports are connected here.
    let controls: UnsafeMutablePointer<Float>
    /// Each port's allowed range (control inputs; others hold -inf...inf), for clamping.
    let lowerBounds: UnsafeMutablePointer<Float>
    let upperBounds: UnsafeMutablePointer<Float>
    let portCount: Int
    /// Index of the output control port reporting latency, or -1.
    let latencyPort: Int
    /// The latency port's value in samples as of the last run, published for other threads: the
    /// plugin writes its port as a plain float during run(), so only the process thread reads it.
    let publishedLatency: UnsafeMutablePointer<Atomic<Int>>
    /// Atom sequence buffers (`atomCount` of them) and, per buffer, its byte capacity and
    /// whether it is an input (reset to an empty sequence before each run) or an output (reset
    /// to an empty chunk of the whole capacity, for the plugin to write into).
    let atoms: UnsafeMutablePointer<UnsafeMutableRawPointer>
    let atomCapacities: UnsafeMutablePointer<Int>
    let atomIsInput: UnsafeMutablePointer<Bool>
    let atomCount: Int
    let sequenceType: LV2_URID
    let chunkType: LV2_URID
    /// Worker channel when the plugin has the worker interface, else nil.
    let worker: UnsafeMutablePointer<WorkerChannel>?
}
