import Synchronization
import VoiceRT

/// The process thread's end of a recording: copies frames into preallocated blocks and hands
/// full blocks to the writer thread. It never waits, allocates or locks.
///
/// When no free block is left (the writer fell behind by more than the buffer), frames are
/// counted as lost; the count rides with the next block, and the writer writes that much silence
/// first, so the file's timeline stays true (jack_capture's scheme).
///
/// A copyable bundle of pointers (no class on the process thread); the `Recording` that made it
/// owns the memory and outlives every use.
///
/// - Realtime: `write` and `finish` are safe and must be called from one thread at a time (the
///   producer): the process thread while it runs, or the main thread once it has stopped.
public struct RecorderInput: @unchecked Sendable {
    /// Channels per frame.
    public let channels: Int
    /// Frames per block.
    let blockFrames: Int
    let storage: UnsafeMutablePointer<Float>
    let headers: UnsafeMutablePointer<BlockHeader>
    /// The process thread's end of the block pool: free blocks in, filled blocks out.
    let blocks: PoolProducer
    let shared: UnsafeMutablePointer<RecorderShared>
    let producer: UnsafeMutablePointer<ProducerState>

    /// The producer's own bookkeeping (touched by the producer thread only).
    struct ProducerState {
        /// Block being filled, or -1 when none was free.
        var block = -1
        /// Frames lost since the last block was started.
        var lostPending = 0
        var finished = false
    }

    /// Appends `frames` frames; `channelData` points at `channels` buffers of `frames` samples.
    /// - Realtime: safe.
    @_noLocks
    public func write(_ channelData: UnsafePointer<UnsafePointer<Float>>, frames: Int) {
        let p = producer
        guard !p.pointee.finished else { return }
        if shared.pointee.stopRequested.load(ordering: .acquiring) {
            finish()
            return
        }
        // A failed file takes no more audio; what it holds stays valid.
        if shared.pointee.failed.load(ordering: .relaxed) { return }
        shared.pointee.framesCaptured.add(frames, ordering: .relaxed)
        var done = 0
        while done < frames {
            if p.pointee.block < 0 && !startBlock() {
                let lost = frames - done
                p.pointee.lostPending += lost
                shared.pointee.framesLost.add(lost, ordering: .relaxed)
                return
            }
            let block = p.pointee.block
            let used = headers[block].frames
            let n = min(frames - done, blockFrames - used)
            let base = storage + (block * blockFrames + used) * channels
            for c in 0..<channels {
                let source = channelData[c] + done
                for i in 0..<n { base[i * channels + c] = source[i] }
            }
            headers[block].frames = used + n
            done += n
            if used + n == blockFrames { publish() }
        }
    }

    /// Marks `frames` frames of the timeline that never reached the producer (the process thread
    /// did not run for them, e.g. the process was stopped): they are counted as lost and the
    /// writer writes them as silence after what was written so far, so the file's timeline stays
    /// true. - Realtime: safe.
    @_noLocks
    public func skip(_ frames: Int) {
        let p = producer
        guard frames > 0, !p.pointee.finished, !shared.pointee.failed.load(ordering: .relaxed) else { return }
        // The gap comes after the frames already in the current block.
        if p.pointee.block >= 0 && headers[p.pointee.block].frames > 0 { publish() }
        p.pointee.lostPending += frames
        shared.pointee.framesCaptured.add(frames, ordering: .relaxed)
        shared.pointee.framesLost.add(frames, ordering: .relaxed)
        shared.pointee.framesNotRun.add(frames, ordering: .relaxed)
    }

    /// Stamps the timeline position of the next frame written (the JACK transport frame), which
    /// the writer puts in the file's time reference (`RecordingSpec.timeReference`). Only the
    /// first stamp counts. - Realtime: safe (one compare-exchange).
    @_noLocks
    public func stampTimeReference(_ position: Int) {
        // Release: pairs with the writer's acquire, before it sees the block holding this frame.
        _ = shared.pointee.timeReference.compareExchange(
            expected: -1, desired: max(0, position), ordering: .releasing)
    }

    /// True when `frames` frames can be written now without loss, or need not be (the recording
    /// finished, failed or was asked to stop: `write` drops them anyway). The process thread in
    /// freewheel, which may wait, polls it. - Realtime: safe.
    @_noLocks
    public func hasRoom(for frames: Int) -> Bool {
        if producer.pointee.finished || shared.pointee.failed.load(ordering: .relaxed)
            || shared.pointee.stopRequested.load(ordering: .relaxed)
        {
            return true
        }
        return canAccept(frames)
    }

    /// True when `frames` frames fit without loss right now. The offline driver, which may wait,
    /// polls it before writing; the process thread never needs it. - Realtime: safe.
    @_noLocks
    public func canAccept(_ frames: Int) -> Bool {
        let block = producer.pointee.block
        let room = block >= 0 ? blockFrames - headers[block].frames : 0
        return room + blocks.freeSlots() * blockFrames >= frames
    }

    /// Publishes the partly filled block and the final loss, and tells the writer no more will
    /// come. Idempotent. - Realtime: safe.
    @_noLocks
    public func finish() {
        let p = producer
        guard !p.pointee.finished else { return }
        if p.pointee.block >= 0 && headers[p.pointee.block].frames > 0 { publish() }
        shared.pointee.finalLoss.store(p.pointee.lostPending, ordering: .relaxed)
        p.pointee.finished = true
        shared.pointee.producerDone.store(true, ordering: .releasing)
    }

    /// Takes a free block; false when there is none.
    @_noLocks
    private func startBlock() -> Bool {
        guard let block = blocks.take() else { return false }
        headers[block].frames = 0
        headers[block].lostBefore = producer.pointee.lostPending
        producer.pointee.lostPending = 0
        producer.pointee.block = block
        return true
    }

    /// Hands the current block to the writer. The pool's filled ring has room for every block, so
    /// this cannot fail.
    @_noLocks
    private func publish() {
        blocks.publish(producer.pointee.block)
        producer.pointee.block = -1
    }
}
