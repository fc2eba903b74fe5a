import Foundation
import Synchronization
import VoiceRecorder

/// The live loudness meter: a consumer of a tap's blocks, as a recording or a stream is, that
/// measures them with libebur128 off the process thread.
///
/// The process thread writes the tap into `input` (a `RecorderInput`: preallocated blocks, it
/// never waits; frames that find no free block are counted). A thread of the meter's own (or,
/// offline, the caller through `drain`) feeds them to two meters: one that runs for the whole
/// session (momentary and short-term loudness) and one per take (integrated loudness, range,
/// true peak), started again by `startTake`. `figures` is what both read now.
///
/// - Realtime: only `input` is for the process thread. `figures`, `startTake` and `stop` may be
///   called from any thread; `drain` from one thread at a time, and only when the meter was made
///   without its own thread.
public final class LiveLoudness: @unchecked Sendable {
    /// The process thread's end.
    public let input: RecorderInput
    public let sampleRate: Int
    private let buffer: BlockBuffer
    /// Consumer-thread state: the meters and the frames measured.
    private var running: LoudnessMeter
    private var take: LoudnessMeter
    private var frames = 0
    private let published = Mutex(LoudnessFigures())
    /// Any thread → consumer: begin a new take with the next block.
    private let takeRequested = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    /// The meter's own thread; nil when the caller drains (offline).
    private let meterThread: ConsumerThread?

    /// Frames per block: 20 ms at 48 kHz, so the figures trail the audio by at most that.
    public static let blockFrames = 960
    /// Seconds of audio the blocks hold while the meter's thread is held up.
    public static let bufferSeconds = 2.0
    /// How long the meter's thread sleeps when no block is waiting, microseconds.
    static let idleMicroseconds: UInt32 = 10_000

    /// A meter of mono audio at `sampleRate`; with `thread`, a thread of its own drains it (live),
    /// else the caller calls `drain` (offline). Nil when libebur128 refuses the rate.
    public init?(sampleRate: Int, thread: Bool) {
        guard let running = LoudnessMeter(channels: 1, sampleRate: sampleRate, sessionOnly: true),
            let take = LoudnessMeter(channels: 1, sampleRate: sampleRate)
        else { return nil }
        self.running = running
        self.take = take
        self.sampleRate = sampleRate
        let blocks = BlockBuffer.blockCount(
            holding: Self.bufferSeconds, sampleRate: sampleRate, blockFrames: Self.blockFrames)
        buffer = BlockBuffer(channels: 1, blockFrames: Self.blockFrames, blockCount: blocks)
        input = buffer.input
        meterThread = thread ? ConsumerThread(name: "voicerack-loudness") : nil
        meterThread?.start { [self] in
            while !stopRequested.load(ordering: .acquiring) {
                if drain() == 0 { usleep(Self.idleMicroseconds) }
            }
            drain()
        }
    }

    /// The figures now. Any thread.
    public var figures: LoudnessFigures { published.withLock { $0 } }

    /// Starts a new take: the integrated loudness, range and true peak count from the next block
    /// on. Any thread.
    public func startTake() { takeRequested.store(true, ordering: .releasing) }

    /// Measures every block waiting and publishes the figures; returns the frames measured.
    /// The consumer only (the meter's thread, or the offline caller).
    @discardableResult
    public func drain() -> Int {
        var measured = 0
        if takeRequested.exchange(false, ordering: .acquiring),
            let fresh = LoudnessMeter(channels: 1, sampleRate: sampleRate)
        {
            take = fresh
        }
        while let block = buffer.nextBlock() {
            running.add(block.samples, frames: block.frames)
            take.add(block.samples, frames: block.frames)
            measured += block.frames
            buffer.release(block)
        }
        guard measured > 0 else { return 0 }
        frames += measured
        var now = LoudnessFigures()
        now.momentary = running.momentary
        now.shortTerm = running.shortTerm
        now.take = take.reading
        now.seconds = Double(frames) / Double(sampleRate)
        now.framesLost = buffer.framesLost
        published.withLock { $0 = now }
        return measured
    }

    /// Stops the meter's thread after it measured what is waiting (the producer must be done
    /// with `input`: the route taken away, or `input.finish()` called). Idempotent. Any thread
    /// but the meter's own. The thread holds the meter: call it before letting the meter go.
    public func stop() {
        guard let meterThread, !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        meterThread.wait()
    }
}
