import Foundation
import Synchronization
import VoiceFiles
import VoiceRT

/// A recording in progress: owns the block buffer and the writer thread, hands the process
/// thread its `input`, and reports what happened.
///
/// Lifecycle: `init` checks the request and opens the file (so a bad path or format is refused
/// before any audio flows), the producer calls `input.write` every cycle, the main thread calls
/// `requestStop()` (the producer finishes on its next cycle) or, when no producer runs any more,
/// `finishProducer()`; then `waitUntilFinished()` returns the result.
///
/// - Realtime: only `input` is for the process thread; everything here is main thread.
public final class Recording: @unchecked Sendable {
    /// What was asked for.
    public let spec: RecordingSpec
    /// The process thread's end.
    public let input: RecorderInput
    private let buffer: BlockBuffer
    private let writer: DiskWriter
    private let writerThread = ConsumerThread(name: "voicerack-disk-writer")
    private var result: RecordingResult?

    /// Checks the request, opens the first file and starts the writer thread.
    public init(spec: RecordingSpec) throws(RecordingError) {
        self.spec = spec
        let folder = (spec.path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw RecordingError(path: spec.path, message: "folder \(folder) does not exist", beforeStart: true)
        }
        let first: AudioFileWriter
        do {
            first = try AudioFileWriter(
                path: spec.path, format: spec.format, sampleRate: spec.sampleRate, channels: spec.channels)
        } catch {
            throw RecordingError(path: spec.path, message: error.description, beforeStart: true)
        }
        first.limitCrashLoss()
        // Before any frame: libsndfile accepts a bext chunk only then (the writer fills it in).
        if spec.timeReference { first.reserveTimeReference() }
        buffer = BlockBuffer(channels: spec.channels, blockFrames: spec.blockFrames, blockCount: spec.blockCount)
        input = buffer.input
        writer = DiskWriter(spec: spec, buffer: buffer, firstFile: first)
        writerThread.start { [writer] in writer.run() }
    }

    /// Asks the producer to finish on its next `write`.
    public func requestStop() { buffer.requestStop() }

    /// Finishes on the producer's behalf; only when no producer thread calls `write` any more
    /// (the JACK client is deactivated, the offline loop is done).
    public func finishProducer() { input.finish() }

    /// Waits until every block is on disk and the file is closed (after `requestStop` or
    /// `finishProducer`), then returns what happened.
    public func waitUntilFinished() -> RecordingResult {
        if let result { return result }
        writerThread.wait()
        let r = RecordingResult(
            status: status, files: writer.files.withLock { $0 }, error: writer.failure.withLock { $0 },
            fileProblem: writer.fileProblem.withLock { $0 }, fileMoved: writer.fileMoved.withLock { $0 })
        result = r
        return r
    }

    /// Counters so far (any thread).
    public var status: RecordingStatus {
        let s = input.shared
        return RecordingStatus(
            framesCaptured: s.pointee.framesCaptured.load(ordering: .relaxed),
            framesLost: s.pointee.framesLost.load(ordering: .relaxed),
            framesNotRun: s.pointee.framesNotRun.load(ordering: .relaxed),
            framesWritten: s.pointee.framesWritten.load(ordering: .relaxed),
            framesPadded: s.pointee.framesPadded.load(ordering: .relaxed),
            failed: s.pointee.failed.load(ordering: .relaxed))
    }

    /// The error that stopped the recording, if any (any thread).
    public var error: RecordingError? { writer.failure.withLock { $0 } }

    /// Test hook: the writer thread does nothing for `seconds`, as a stalled disk would.
    public func stallWriter(seconds: Double) {
        let until = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        input.shared.pointee.stalledUntil.store(until, ordering: .relaxed)
    }
}

/// Counters of a recording, in frames.
public struct RecordingStatus: Sendable, Equatable {
    /// Frames handed to the recorder.
    public let framesCaptured: Int
    /// Frames that found no free block (the disk fell behind by more than the buffer).
    public let framesLost: Int
    /// Of `framesLost`, the frames no cycle ran for (xruns, a stopped process); the rest the
    /// disk did not take in time.
    public let framesNotRun: Int
    /// Frames in the files, audio and padding.
    public let framesWritten: Int
    /// Frames of silence written in place of lost frames.
    public let framesPadded: Int
    /// True when a write error stopped the recording.
    public let failed: Bool
}

/// How a recording ended.
public struct RecordingResult: Sendable {
    public let status: RecordingStatus
    /// Files written, in order (more than one after rotation).
    public let files: [String]
    /// What stopped it early, if anything.
    public let error: RecordingError?
    /// A file that was deleted or replaced while it recorded (its audio is gone), if any.
    public var fileProblem: String? = nil
    /// A file that was moved away while it recorded (whole at its new place), if any.
    public var fileMoved: String? = nil
}
