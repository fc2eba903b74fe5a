import Foundation
import Synchronization
import VoiceEngine
import VoiceFiles
import VoiceSpeex

/// The backing-track player's non-real-time side: reads the file, resamples it to the engine's
/// rate and keeps the `BackingSource` ring about two seconds ahead of the process thread.
///
/// ```
/// file (libsndfile, any format, mono or stereo, any rate) ─► chunk ─► StreamingResampler
///   ─► mono → L = R ─► BackingSource.ring ─► (process thread) level, speakers, reference, taps
/// ```
///
/// Live, a reader thread (`start`/`stop`) calls `refill` every 10 ms; offline, the driver calls
/// `refill` itself before each block (`renderOffline`), so the very same ring, resampler, level and
/// loop code produce the backing in both. A looping track is fed to the resampler as one endless
/// stream (end, then start again), so the loop has no gap; a track that does not loop is flushed
/// through the resampler and then ends (silence, not counted as underruns).
///
/// - Realtime: never. Main thread, or the reader thread it starts; `source` is the process
///   thread's end.
public final class BackingTrack: @unchecked Sendable {
    /// What the player reads ahead at least, in seconds of audio (the ring rounds up to a power
    /// of two: 2.7 s at 48 kHz).
    public static let aheadSeconds = 2.0
    /// Input frames read from the file at a time.
    static let chunkFrames = 4_096

    public let path: String
    /// The file's own rate and channels.
    public let fileRate: Int
    public let fileChannels: Int
    /// The engine's rate (Hz) the track is resampled to.
    public let sampleRate: Int
    public let loops: Bool
    /// The process thread's end, at a stable address until `deinit` (after `stop`).
    public let source: UnsafeMutablePointer<BackingSource>

    private let stream: AudioFileStream
    private var resampler: StreamingResampler
    private var fileChunk: [Float]
    private var fileFrames = 0
    private var fileOffset = 0
    private var inputEnded = false
    private var inputFramesRead = 0
    private var outputFramesMade = 0
    private var resampled: [Float]
    /// Stereo frames made but not yet in the ring, from `pendingOffset` (samples) on.
    private var pending: [Float] = []
    private var pendingOffset = 0
    private var ended = false
    /// The last locate this reader accepted (transport frame at the engine's rate; -1 none).
    private var acceptedSeek = -1
    private let stopRequested = Atomic<Bool>(false)
    private let threadDone = DispatchSemaphore(value: 0)
    private var threadRunning = false
    /// Why reading stopped early (a read error), for the main thread to report.
    public let problem = Mutex<String?>(nil)
    /// CPU seconds spent in `refill` (file reading and resampling).
    public private(set) var cpuSeconds = 0.0

    /// Opens `path` and checks that it can be a backing track: exists (66), is audio libsndfile
    /// reads, mono or stereo, not empty (65). The error names the file. - Realtime: never.
    public static func open(_ path: String) throws(HostError) -> AudioFileStream {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HostError(.noInput, "backing track \(path) does not exist")
        }
        let stream: AudioFileStream
        do {
            stream = try AudioFileStream(path: path)
        } catch {
            throw HostError(.data, "backing track: \(error.description)")
        }
        guard (1...2).contains(stream.channels) else {
            throw HostError(
                .data, "backing track \(path) has \(stream.channels) channels; voicerack plays mono or stereo tracks")
        }
        guard VoiceEngine.sampleRates.contains(stream.sampleRate) else {
            throw HostError(
                .data,
                "backing track \(path): sample rate \(stream.sampleRate) Hz is outside \(VoiceEngine.sampleRates.lowerBound)–\(VoiceEngine.sampleRates.upperBound) Hz"
            )
        }
        guard stream.frames > 0 else { throw HostError(.data, "backing track \(path) holds no audio frames") }
        return stream
    }

    /// A player for `path` at `sampleRate` Hz, `levelDB` on the speakers, looping or not, with
    /// the ring already filled (so the first cycles do not underrun). - Realtime: never.
    public init(path: String, sampleRate: Int, levelDB: Float, loop: Bool) throws(HostError) {
        stream = try Self.open(path)
        self.path = path
        fileRate = stream.sampleRate
        fileChannels = stream.channels
        self.sampleRate = sampleRate
        loops = loop
        do {
            resampler = try StreamingResampler(channels: stream.channels, from: stream.sampleRate, to: sampleRate)
        } catch {
            throw HostError(.data, "backing track \(path): \(error.description)")
        }
        fileChunk = [Float](repeating: 0, count: Self.chunkFrames * stream.channels)
        resampled = [Float](repeating: 0, count: resampler.outputFrames(forInput: Self.chunkFrames) * stream.channels)
        source = .allocate(capacity: 1)
        source.initialize(
            to: BackingSource(
                ringFrames: Int(Self.aheadSeconds * Double(sampleRate)), levelDB: levelDB,
                glideSamples: max(1, sampleRate / 50)))
        try refill()
    }

    deinit {
        stop()
        source.deinitialize(count: 1)
        source.deallocate()
    }

    /// Reads and resamples until the ring is full or the track has ended. - Realtime: never.
    public func refill() throws(HostError) {
        let start = threadCPUTime()
        defer { cpuSeconds += threadCPUTime() - start }
        guard try followSeek() else { return }
        defer { markSeekServed() }
        let ring = source.pointee.ring.producer
        while !ended || pendingOffset < pending.count {
            if pendingOffset < pending.count {
                let wrote = pending.withUnsafeBufferPointer { p in
                    ring.write(p.baseAddress! + pendingOffset, (pending.count - pendingOffset) & ~1)
                }
                pendingOffset += wrote
                if pendingOffset < pending.count { return }  // the ring is full
            }
            if !ended { try makePending() }
        }
    }

    /// The reader's side of a locate (BackingSource+Transport.swift): accepts a new target by
    /// seeking the file there, then holds off writing until the process thread drained the ring.
    /// Returns true when `refill` may write. - Realtime: never; reader thread.
    private func followSeek() throws(HostError) -> Bool {
        let s = source
        let target = s.pointee.seekTarget.load(ordering: .acquiring)
        guard target >= 0 else { return true }
        if target != acceptedSeek {
            try seek(toFrame: target)
            acceptedSeek = target
            // Release: the process thread drains only after this; nothing older follows.
            s.pointee.seekAccepted.store(target, ordering: .releasing)
            return false
        }
        return s.pointee.seekDrained.load(ordering: .acquiring) == target
    }

    /// Tells the process thread the ring holds the track from the accepted target, once filled.
    private func markSeekServed() {
        let s = source
        guard acceptedSeek >= 0, s.pointee.seekDrained.load(ordering: .acquiring) == acceptedSeek,
            s.pointee.seekServed.load(ordering: .relaxed) != acceptedSeek
        else { return }
        s.pointee.seekServed.store(acceptedSeek, ordering: .releasing)
    }

    /// Starts reading at `frame` (engine rate; modulo the track's length when it loops): drops
    /// what was made ahead and starts a fresh resampler there.
    private func seek(toFrame frame: Int) throws(HostError) {
        let length = stream.frames
        var fileFrame = Int((Double(frame) * Double(fileRate) / Double(sampleRate)).rounded())
        if loops, length > 0 { fileFrame %= length }
        pending = []
        pendingOffset = 0
        fileOffset = 0
        fileFrames = 0
        ended = false
        inputEnded = false
        source.pointee.finished.store(false, ordering: .relaxed)
        do {
            resampler = try StreamingResampler(channels: fileChannels, from: fileRate, to: sampleRate)
            try stream.seek(toFrame: min(fileFrame, length))
        } catch {
            throw fail("cannot locate to frame \(frame): \(error)")
        }
        inputFramesRead = min(fileFrame, length)
        outputFramesMade = Int((Double(inputFramesRead) * Double(sampleRate) / Double(fileRate)).rounded())
    }

    /// Resamples the next chunk into `pending` (stereo, interleaved); marks the end when done.
    private func makePending() throws(HostError) {
        if fileOffset == fileFrames { try readChunk() }
        let channels = fileChannels
        var made = 0
        do {
            let result = try fileChunk.withUnsafeBufferPointer { input in
                try resampled.withUnsafeMutableBufferPointer { output in
                    try resampler.process(
                        input.baseAddress! + fileOffset * channels, inputFrames: fileFrames - fileOffset,
                        into: output.baseAddress!, outputCapacity: output.count / channels)
                }
            }
            fileOffset += result.consumed
            made = result.produced
        } catch {
            throw fail("resampling failed: \(error)")
        }
        if inputEnded {
            // Past the file's end only the resampler's tail is wanted: as many frames in all as
            // the file's length at the engine's rate.
            let expected = Int((Double(inputFramesRead) * Double(sampleRate) / Double(fileRate)).rounded())
            made = min(made, max(0, expected - outputFramesMade))
            if outputFramesMade + made >= expected { finish() }
        }
        outputFramesMade += made
        pending = [Float](repeating: 0, count: 2 * made)
        for i in 0..<made {
            let l = resampled[i * channels]
            pending[2 * i] = l
            pending[2 * i + 1] = channels == 2 ? resampled[i * channels + 1] : l
        }
        pendingOffset = 0
    }

    /// Reads the next file chunk; at the end, starts over (loop) or feeds silence to flush the
    /// resampler.
    private func readChunk() throws(HostError) {
        fileOffset = 0
        if inputEnded {
            fileChunk.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            fileFrames = Self.chunkFrames
            return
        }
        fileFrames = try readFile()
        if fileFrames == 0 && loops {
            do { try stream.rewind() } catch { throw fail(error.description) }
            fileFrames = try readFile()
        }
        if fileFrames == 0 {
            inputEnded = true
            try readChunk()
            return
        }
        inputFramesRead += fileFrames
    }

    private func readFile() throws(HostError) -> Int {
        do {
            let chunk = Self.chunkFrames
            return try fileChunk.withUnsafeMutableBufferPointer { (b) throws(AudioFileError) in
                try stream.read(into: b.baseAddress!, frames: chunk)
            }
        } catch {
            throw fail(error.description)
        }
    }

    /// The track has been written whole: tell the process thread that an empty ring is the end.
    private func finish() {
        ended = true
        source.pointee.finished.store(true, ordering: .releasing)
    }

    /// Records a read problem, ends the track, and returns the error to throw.
    private func fail(_ message: String) -> HostError {
        let text = "backing track \(path): \(message)"
        problem.withLock { $0 = text }
        finish()
        return HostError(.io, text)
    }

    /// Starts the reader thread (live). - Realtime: never; main thread.
    public func start() {
        guard !threadRunning else { return }
        threadRunning = true
        let thread = Thread { [self] in
            while !stopRequested.load(ordering: .relaxed) {
                try? refill()
                usleep(10_000)
            }
            threadDone.signal()
        }
        thread.name = "voicerack backing reader"
        thread.start()
    }

    /// Stops the reader thread and waits for it. Idempotent. - Realtime: never; main thread.
    public func stop() {
        guard threadRunning else { return }
        stopRequested.store(true, ordering: .relaxed)
        threadDone.wait()
        threadRunning = false
    }

    /// Plays the whole track offline for `frames` frames in `block`-sized cycles through the
    /// same `BackingSource.play` the process thread runs; returns L and R. - Realtime: never.
    public func renderOffline(frames: Int, block: Int) throws(HostError) -> [[Float]] {
        var left = [Float](repeating: 0, count: frames)
        var right = left
        var position = 0
        while position < frames {
            try refill()
            let n = min(block, frames - position, BackingSource.maximumBlock)
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    source.pointee.play(into: l.baseAddress! + position, r.baseAddress! + position, frames: n)
                }
            }
            position += n
        }
        return [left, right]
    }

    /// Pauses a playing track or resumes a paused one; returns whether it plays now.
    /// - Realtime: never needed; any thread.
    public func togglePlaying() -> Bool {
        let on = !source.pointee.isPlaying
        source.pointee.setPlaying(on)
        return on
    }

    /// Sets the level on the speakers (dB); the process thread glides to it. - Realtime: any thread.
    public func setLevel(_ db: Float) { source.pointee.setLevel(db) }

    /// Frames due while playing that the reader had not delivered. - Realtime: any thread.
    public var underruns: Int { source.pointee.underruns.load(ordering: .relaxed) }
    /// Seconds of the track played so far. - Realtime: any thread.
    public var secondsPlayed: Double {
        Double(source.pointee.framesPlayed.load(ordering: .relaxed)) / Double(sampleRate)
    }
}

/// CPU time of the calling thread, in seconds.
func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
