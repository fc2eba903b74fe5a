import Synchronization

/// State shared by the process thread (producer), the writer thread and the main thread.
///
/// Counters are in frames (one sample per channel). All flags and counters are atomics: no side
/// ever waits for another.
struct RecorderShared: ~Copyable {
    /// Main → producer: publish what you have and stop.
    let stopRequested = Atomic<Bool>(false)
    /// Producer → writer: no more blocks will come; `finalLoss` is valid.
    let producerDone = Atomic<Bool>(false)
    /// Frames lost after the last published block (the writer pads them at the end).
    let finalLoss = Atomic<Int>(0)
    /// Writer → producer: the file failed (disk full, I/O error); stop capturing.
    let failed = Atomic<Bool>(false)
    /// Frames the producer was handed.
    let framesCaptured = Atomic<Int>(0)
    /// Frames the producer could not store because no block was free.
    let framesLost = Atomic<Int>(0)
    /// Of `framesLost`, the frames no cycle ran for (`RecorderInput.skip`: xruns, a stopped
    /// process), as opposed to those the disk did not take in time.
    let framesNotRun = Atomic<Int>(0)
    /// Frames the writer has put in files (audio and silence padding).
    let framesWritten = Atomic<Int>(0)
    /// Frames of silence the writer wrote in place of lost frames.
    let framesPadded = Atomic<Int>(0)
    /// Producer → writer: the timeline position (e.g. the JACK transport frame) of the first frame
    /// written, for the file's time reference; -1 while none was stamped.
    let timeReference = Atomic<Int>(-1)
    /// Test hook: the writer does nothing until this uptime (nanoseconds); 0 = not stalled.
    let stalledUntil = Atomic<UInt64>(0)
}

/// Where one block stands: how many frames it holds and how many were lost just before it.
struct BlockHeader {
    var frames = 0
    var lostBefore = 0
}
