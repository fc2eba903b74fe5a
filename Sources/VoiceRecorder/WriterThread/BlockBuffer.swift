import Synchronization
import VoiceRT

/// The memory between a producer (the process thread) and one consumer thread: preallocated
/// blocks of interleaved frames moved through a `BlockPool` (filled one way, free the other),
/// plus the shared counters. The producer's end is `input`; the consumer's end is
/// `nextBlock()` / `release(_:)`.
///
/// Two kinds of consumer drain it: the disk writer (`Recording`) and the stream sender
/// (VoiceStream). Both see the same guarantees: the producer never waits, and frames that found no
/// free block are counted and announced before the next block (`FilledBlock.lostBefore`).
///
/// - Realtime: `input` is for the producer; `nextBlock`, `release` and the counters are for the
///   one consumer thread (counters may be read from any thread). `init` allocates and pre-touches
///   every block (no page fault on the process thread); `deinit` frees them, after both sides are
///   done.
public final class BlockBuffer: @unchecked Sendable {
    /// The producer's end.
    public let input: RecorderInput
    /// The blocks' indices; the consumer's end is used here, the producer's is in `input`.
    private let pool: BlockPool

    /// A filled block handed to the consumer: `frames` interleaved frames at `samples`, and the
    /// frames the producer lost just before them. Valid until `release(_:)`.
    public struct FilledBlock {
        /// Which block (give it back with `release`).
        public let index: Int
        public let samples: UnsafePointer<Float>
        public let frames: Int
        public let lostBefore: Int
    }

    /// `blockCount` blocks of `blockFrames` frames of `channels` channels.
    public init(channels: Int, blockFrames: Int, blockCount: Int) {
        let samples = blockCount * blockFrames * channels
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: samples)
        storage.initialize(repeating: 0, count: samples)
        let headers = UnsafeMutablePointer<BlockHeader>.allocate(capacity: blockCount)
        headers.initialize(repeating: BlockHeader(), count: blockCount)
        pool = BlockPool(count: blockCount)
        let shared = UnsafeMutablePointer<RecorderShared>.allocate(capacity: 1)
        shared.initialize(to: RecorderShared())
        let producer = UnsafeMutablePointer<RecorderInput.ProducerState>.allocate(capacity: 1)
        producer.initialize(to: .init())
        input = RecorderInput(
            channels: channels, blockFrames: blockFrames, storage: storage, headers: headers,
            blocks: pool.producer, shared: shared, producer: producer)
    }

    /// Blocks of `blockFrames` frames enough to hold `seconds` of audio at `sampleRate` Hz, and
    /// at least 4 (so the producer has a block to fill while the consumer holds others).
    public static func blockCount(holding seconds: Double, sampleRate: Int, blockFrames: Int) -> Int {
        max(4, Int((seconds * Double(sampleRate) / Double(blockFrames)).rounded(.up)))
    }

    deinit {
        input.storage.deallocate()
        input.headers.deallocate()
        pool.deallocate()
        input.shared.deinitialize(count: 1)
        input.shared.deallocate()
        input.producer.deallocate()
    }

    /// The oldest filled block, or nil when none is waiting. Consumer only.
    public func nextBlock() -> FilledBlock? {
        guard let block = pool.consumer.next() else { return nil }
        let header = input.headers[block]
        return FilledBlock(
            index: block, samples: input.storage + block * input.blockFrames * input.channels,
            frames: header.frames, lostBefore: header.lostBefore)
    }

    /// Gives a block back to the producer. Consumer only.
    public func release(_ block: FilledBlock) { pool.consumer.release(block.index) }

    /// True once the producer finished: no block will follow those still filled. Any thread.
    public var producerDone: Bool { input.shared.pointee.producerDone.load(ordering: .acquiring) }

    /// Frames lost after the last published block; valid once `producerDone`. Any thread.
    public var finalLoss: Int { input.shared.pointee.finalLoss.load(ordering: .relaxed) }

    /// Frames the producer was handed so far. Any thread.
    public var framesCaptured: Int { input.shared.pointee.framesCaptured.load(ordering: .relaxed) }

    /// Frames that found no free block so far. Any thread.
    public var framesLost: Int { input.shared.pointee.framesLost.load(ordering: .relaxed) }

    /// Asks the producer to finish on its next `write`. Any thread.
    public func requestStop() { input.shared.pointee.stopRequested.store(true, ordering: .releasing) }
}
