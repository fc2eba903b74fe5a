import Foundation
import Synchronization
import VoiceFiles

/// The writer thread's side of a recording: takes filled blocks, writes them (and silence for
/// lost frames) with libsndfile, returns the blocks, rotates files, syncs to disk.
///
/// - Realtime: never; runs on its own thread, polling every 5 ms (never woken by the process
///   thread, which must not touch a semaphore or mutex).
final class DiskWriter: @unchecked Sendable {
    private let spec: RecordingSpec
    private let buffer: BlockBuffer
    private let input: RecorderInput
    private var file: AudioFileWriter?
    private var fileIndex = 0
    private var bytesInFile = 0
    private var lastSync = ProcessInfo.processInfo.systemUptime
    private let silence: [Float]
    /// The time reference stamped by the producer, once applied to the first file (-1: not yet).
    private var timeReference = -1
    /// Frames in the files before the current one (a rotated file's time reference follows on).
    private var framesBeforeFile = 0
    /// Files written so far (main thread reads after the thread ended, or under the mutex).
    let files = Mutex<[String]>([])
    let failure = Mutex<RecordingError?>(nil)
    /// A file deleted or replaced under the writer (checked at every sync and before closing).
    let fileProblem = Mutex<String?>(nil)
    /// A file moved away under the writer, whole at its new place (checked as `fileProblem`).
    let fileMoved = Mutex<String?>(nil)

    init(spec: RecordingSpec, buffer: BlockBuffer, firstFile: AudioFileWriter) {
        self.spec = spec
        self.buffer = buffer
        input = buffer.input
        file = firstFile
        files.withLock { $0.append(spec.path) }
        silence = [Float](repeating: 0, count: spec.blockFrames * spec.channels)
    }

    /// The thread body: runs until the producer is done and every block is on disk.
    func run() {
        let shared = input.shared
        while true {
            if isStalled() {
                usleep(5_000)
                continue
            }
            let wrote = drain()
            if shared.pointee.producerDone.load(ordering: .acquiring) {
                _ = drain()
                padSilence(shared.pointee.finalLoss.load(ordering: .relaxed))
                close()
                return
            }
            if ProcessInfo.processInfo.systemUptime - lastSync >= spec.syncInterval {
                file?.sync()
                checkPath()
                lastSync = ProcessInfo.processInfo.systemUptime
            }
            if !wrote { usleep(5_000) }
        }
    }

    /// Writes every filled block; returns whether there was any.
    private func drain() -> Bool {
        var any = false
        while let block = buffer.nextBlock() {
            applyTimeReference()
            any = true
            padSilence(block.lostBefore)
            write(block.samples, frames: block.frames)
            buffer.release(block)
        }
        return any
    }

    /// Puts the producer's stamp in the file's `bext` time reference, once, before the first block
    /// it belongs to is written (`RecordingSpec.timeReference`).
    private func applyTimeReference() {
        guard spec.timeReference, timeReference < 0 else { return }
        // Acquire: pairs with the producer's release; the stamp precedes the block we hold.
        let stamped = input.shared.pointee.timeReference.load(ordering: .acquiring)
        guard stamped >= 0 else { return }
        timeReference = stamped
        file?.setTimeReference(UInt64(stamped + framesBeforeFile))
    }

    private func isStalled() -> Bool {
        let until = input.shared.pointee.stalledUntil.load(ordering: .relaxed)
        return until > 0 && DispatchTime.now().uptimeNanoseconds < until
    }

    private func padSilence(_ frames: Int) {
        var left = frames
        while left > 0 {
            let n = min(left, spec.blockFrames)
            silence.withUnsafeBufferPointer { write($0.baseAddress!, frames: n) }
            input.shared.pointee.framesPadded.add(n, ordering: .relaxed)
            left -= n
        }
    }

    /// Writes frames, starting a new file first where the current one would pass its size limit.
    private func write(_ frames: UnsafePointer<Float>, frames count: Int) {
        var done = 0
        let frameBytes = spec.channels * (spec.format.bytesPerSample ?? 4)
        while done < count, file != nil {
            var n = count - done
            if let limit = spec.maximumFileBytes {
                let room = (limit - bytesInFile) / frameBytes
                if room <= 0 {
                    rotate()
                    continue
                }
                n = min(n, room)
            }
            do {
                try file?.write(frames + done * spec.channels, frames: n)
            } catch {
                fail(error.description)
                return
            }
            done += n
            bytesInFile += n * frameBytes
            input.shared.pointee.framesWritten.add(n, ordering: .relaxed)
        }
    }

    /// Closes the current file and opens the next in the numbered series.
    private func rotate() {
        close()
        framesBeforeFile = input.shared.pointee.framesWritten.load(ordering: .relaxed)
        fileIndex += 1
        let path = spec.rotatedPath(fileIndex)
        do {
            let next = try AudioFileWriter(
                path: path, format: spec.format, sampleRate: spec.sampleRate, channels: spec.channels)
            next.limitCrashLoss()
            if spec.timeReference {
                next.reserveTimeReference()
                if timeReference >= 0 { next.setTimeReference(UInt64(timeReference + framesBeforeFile)) }
            }
            file = next
            bytesInFile = 0
            files.withLock { $0.append(path) }
        } catch {
            fail(error.description)
        }
    }

    /// Stops writing after an error: the file written so far is closed (its header made valid),
    /// the producer is told to stop capturing, processing goes on.
    private func fail(_ message: String) {
        failure.withLock {
            $0 = $0 ?? RecordingError(path: file?.path ?? spec.path, message: message, beforeStart: false)
        }
        input.shared.pointee.failed.store(true, ordering: .relaxed)
        close()
    }

    /// Notes the first time the file being written is no longer at its path.
    private func checkPath() {
        switch file?.pathChange() {
        case .gone(let problem)?: fileProblem.withLock { $0 = $0 ?? problem }
        case .moved(let note)?: fileMoved.withLock { $0 = $0 ?? note }
        case nil: break
        }
    }

    private func close() {
        checkPath()
        guard let f = file else { return }
        file = nil
        do { try f.close() } catch {
            failure.withLock { $0 = $0 ?? RecordingError(path: f.path, message: error.description, beforeStart: false) }
        }
        // After a failed write an encoded file holds less than was handed to its encoder: the
        // summary counts what it holds.
        let counted = input.shared.pointee.framesWritten.load(ordering: .relaxed) - framesBeforeFile
        if f.framesWritten < counted {
            input.shared.pointee.framesWritten.store(framesBeforeFile + f.framesWritten, ordering: .relaxed)
        }
    }
}
