import Synchronization
import VoiceRT
import VoiceUnits

/// The process thread's end of the backing-track player: pops the read-ahead stereo audio, glides
/// its level, and adds it to the speaker feed.
///
/// ```
/// reader thread (file, resampler) ─► SPSCRing<Float> (L/R interleaved, ~2 s) ─► pop ─► × level ─┬─► + speaker_out L/R
///                                                                                          └─► left/right (taps)
/// ```
///
/// Added after `feedSpeakers` (so the far end is ducked, the backing is not) and before `render`,
/// the backing is part of what the speakers play, hence of the echo reference and of the monitor's
/// far/program mix. `left`/`right` keep this cycle's levelled block for the karaoke tap.
///
/// Control travels main → process thread as atomics (`setLevel`, `setPlaying`); every change
/// glides over `glideSamples`, so neither level changes nor play/pause click. Once paused and
/// faded out the ring is left alone: the track resumes where it stopped. A short ring while
/// playing (the reader fell behind) plays silence and counts the missing frames in `underruns`;
/// the end of a track that does not loop is not an underrun.
///
/// Owned by whoever allocates it (the host's `BackingTrack`), at a stable address; the JACK
/// process context and the offline driver point at it.
///
/// - Realtime: `play` is safe (process thread only); `setLevel`, `setPlaying` and the counters
///   may be used from any thread; `init` and `deinit` are not real-time.
public struct BackingSource: ~Copyable {
    /// Most frames one `play` call renders; longer blocks get silence beyond it.
    public static let maximumBlock = 8_192

    /// Stereo frames, interleaved; the reader thread is the producer.
    public let ring: SPSCRing<Float>
    /// This cycle's backing after the level, per channel (`maximumBlock` samples each).
    public let left: UnsafeMutablePointer<Float>
    public let right: UnsafeMutablePointer<Float>
    /// Interleaved pop buffer (2 × `maximumBlock`).
    let interleaved: UnsafeMutablePointer<Float>
    /// Level × play gate, gliding.
    var gain: SmoothedGain

    /// Linear level requested by the main thread, as Float bits.
    let requestedLevel: Atomic<UInt32>
    /// Play (true) or pause (false), requested by the main thread.
    let playing: Atomic<Bool>
    /// Set by the producer once it has written the track's last sample (no loop).
    public let finished = Atomic<Bool>(false)
    /// Frames that were due while playing but not in the ring (played as silence).
    public let underruns = Atomic<Int>(0)
    /// Frames taken from the ring (at the engine's rate).
    public let framesPlayed = Atomic<Int>(0)
    /// Follow the JACK transport (BackingSource+Transport.swift); set before a driver starts.
    public var followsTransport = false
    /// The locate handshake (BackingSource+Transport.swift): transport frames at the engine's
    /// rate, -1 for none yet.
    public let seekTarget = Atomic<Int>(-1)
    public let seekAccepted = Atomic<Int>(-1)
    public let seekDrained = Atomic<Int>(-1)
    public let seekServed = Atomic<Int>(-1)

    /// A source over a ring of `ringFrames` stereo frames at `levelDB`, gliding over
    /// `glideSamples`; `playing` false starts paused. - Realtime: never (allocates).
    public init(ringFrames: Int, levelDB: Float, glideSamples: Int, playing: Bool = true) {
        ring = SPSCRing(capacity: 2 * ringFrames, empty: 0)
        left = .zeroed(Self.maximumBlock)
        right = .zeroed(Self.maximumBlock)
        interleaved = .zeroed(2 * Self.maximumBlock)
        let level = Decibels.amplitude(levelDB)
        requestedLevel = Atomic(level.bitPattern)
        self.playing = Atomic(playing)
        gain = SmoothedGain(initial: playing ? level : 0, rampLength: glideSamples)
    }

    deinit {
        ring.deallocate()
        left.deallocate()
        right.deallocate()
        interleaved.deallocate()
    }

    /// Sets the level (dB); the process thread glides to it. - Realtime: any thread.
    public func setLevel(_ db: Float) {
        requestedLevel.store(Decibels.amplitude(db).bitPattern, ordering: .relaxed)
    }

    /// Plays or pauses (fading out, then holding the position). - Realtime: any thread.
    public func setPlaying(_ on: Bool) { playing.store(on, ordering: .relaxed) }

    /// True while playing (not paused). - Realtime: any thread.
    public var isPlaying: Bool { playing.load(ordering: .relaxed) }

    /// True when the next `frames` frames are read ahead, or need not be: paused, or the track
    /// has ended. The freewheel wait polls it. - Realtime: safe.
    @_noLocks
    public func hasAhead(_ frames: Int) -> Bool {
        if !playing.load(ordering: .relaxed) || finished.load(ordering: .acquiring) { return true }
        return ring.consumer.available() >= 2 * min(frames, Self.maximumBlock)
    }

    /// Renders the next `frames` frames into `left`/`right` and adds them to the speaker feed.
    /// `rolling` is the transport's state this cycle; a track that follows the transport plays
    /// only while it rolls and no locate is being served (silence otherwise, the ring untouched).
    ///
    /// - Realtime: safe; process thread (or the offline driver) only.
    @_noLocks
    public mutating func play(
        into speakerLeft: UnsafeMutablePointer<Float>, _ speakerRight: UnsafeMutablePointer<Float>, frames: Int,
        rolling: Bool = true
    ) {
        let n = min(frames, Self.maximumBlock)
        if followsTransport && (!rolling || seeking()) {
            for i in 0..<n {
                left[i] = 0
                right[i] = 0
            }
            return
        }
        pull(n)
        for i in 0..<n {
            speakerLeft[i] += left[i]
            speakerRight[i] += right[i]
        }
    }

    /// Fills `left`/`right` with the next `n` frames at the gliding level.
    @inline(__always) @_noLocks
    mutating func pull(_ n: Int) {
        let on = playing.load(ordering: .relaxed)
        gain.setTarget(on ? Float(bitPattern: requestedLevel.load(ordering: .relaxed)) : 0)
        // Paused and faded out: hold the ring where it is.
        if !on && gain.current == 0 {
            for i in 0..<n {
                left[i] = 0
                right[i] = 0
            }
            return
        }
        let got = ring.consumer.read(into: interleaved, 2 * n) / 2
        if got < n {
            for i in (2 * got)..<(2 * n) { interleaved[i] = 0 }
            // Acquire: the producer sets `finished` after its last write.
            if !finished.load(ordering: .acquiring) { underruns.add(n - got, ordering: .relaxed) }
        }
        framesPlayed.add(got, ordering: .relaxed)
        for i in 0..<n {
            let g = gain.next()
            left[i] = g * interleaved[2 * i]
            right[i] = g * interleaved[2 * i + 1]
        }
    }
}
