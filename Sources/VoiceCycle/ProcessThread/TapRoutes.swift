import Synchronization
import VoiceRT
import VoiceRecorder

/// One recording the cycle feeds: a tap, the recorder's input, and the window of the cycle's
/// timeline it keeps.
///
/// Live, a route keeps everything (`skip` 0, no `limit`). Offline, where every file is aligned
/// with the mic, the driver drops the frames a tap lags behind (the engine's latency for the
/// voice, tuning and karaoke taps) and stops each file at the mic's length.
///
/// - Realtime: a plain value, built on the main thread.
public struct TapRoute: Sendable {
    public var tap: Tap
    public var input: RecorderInput
    /// Frames of the cycle's timeline to drop before the first one kept.
    public var skip: Int
    /// Frames to keep after `skip`; nil for no limit.
    public var limit: Int?

    public init(tap: Tap, input: RecorderInput, skip: Int = 0, limit: Int? = nil) {
        self.tap = tap
        self.input = input
        self.skip = skip
        self.limit = limit
    }
}

/// The recordings the process thread feeds and what each one takes from the cycle's buffers.
///
/// Built on the main thread with everything allocated and pre-touched (the input table, the
/// channel-pointer scratch, the tuning tap's delay lines and mono mix), then handed to the
/// process thread as an ownership token in `ProcessContext.routeSlot` (the engine's scheme: the
/// process thread takes it for one cycle and puts it back; the main thread swaps it only while it
/// is in the slot, and frees the old set itself).
///
/// Each route keeps its own window of the timeline (`TapRoute.skip`, `limit`), counted from the
/// first cycle the set saw (`position`).
///
/// The tuning tap delays mic and reference by the engine's latency (read every cycle from
/// `CycleState.voiceLatency`, which `CycleHost` updates when it installs a new engine) so that the three channels line up with the processed voice.
///
/// - Realtime: `record` is safe and process thread only, while it holds the token; `init` and
///   `deinit` are main thread.
struct TapRoutes: ~Copyable {
    /// Most routes one set holds: `CycleHost.maximumRecordings` recordings, the stream and the
    /// loudness meter.
    static let capacity = 10
    /// Frames routed at a time; longer cycles are routed in chunks of this size.
    static let chunkFrames = 8_192
    /// Longest tuning delay in samples (the engine's latency is a few frames of 5-21 ms; this is
    /// well over a second at 48 kHz).
    static let maximumDelay = 65_536

    let count: Int
    let taps: UnsafeMutablePointer<Tap>
    let inputs: UnsafeMutablePointer<RecorderInput>
    /// Each route's first kept frame and its end (`Int.max`: none), on the set's timeline.
    let windowStart: UnsafeMutablePointer<Int>
    let windowEnd: UnsafeMutablePointer<Int>
    /// Frames of timeline the set has seen.
    var position = 0
    /// Channel pointers handed to `RecorderInput.write` (at most 3 channels).
    let channelPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    let hasTuning: Bool
    /// `chunkFrames` samples each: the delayed mic, the (delayed in place) reference mono mix.
    var delayedMic: AlignedChannel
    var referenceMono: AlignedChannel
    /// The karaoke tap's mix and delay lines (see TapRoutes+Karaoke.swift).
    var karaoke: KaraokeMix
    /// Where this set stands as a gated take (`TakeState` raw value; `RecordingGate`). Written by
    /// the process thread, read by the control side.
    let take = Atomic<Int>(TakeState.armed.rawValue)
    /// The transport frame of the take's first frame (valid once `take` is open).
    let takeFrame = Atomic<Int>(0)
    /// The transport frame just after the take's last recorded cycle. Process thread only: an
    /// atomic because `admit` does not mutate the set.
    let nextTransportFrame = Atomic<Int>(0)

    /// A set feeding `routes` (at most `capacity`), the karaoke tap mixed with `karaokeGains`
    /// (linear voice and backing gains). - Realtime: never (allocates).
    init(_ routes: [TapRoute], karaokeGains: (voice: Float, backing: Float) = (1, 1)) {
        precondition(routes.count <= Self.capacity, "at most \(Self.capacity) recordings")
        count = routes.count
        taps = .allocate(capacity: Self.capacity)
        taps.initialize(repeating: .voice, count: Self.capacity)
        inputs = .allocate(capacity: max(1, routes.count))
        windowStart = .allocate(capacity: Self.capacity)
        windowStart.initialize(repeating: 0, count: Self.capacity)
        windowEnd = .allocate(capacity: Self.capacity)
        windowEnd.initialize(repeating: .max, count: Self.capacity)
        for (i, route) in routes.enumerated() {
            taps[i] = route.tap
            (inputs + i).initialize(to: route.input)
            windowStart[i] = route.skip
            if let limit = route.limit { windowEnd[i] = route.skip + limit }
        }
        hasTuning = routes.contains { $0.tap == .tuning }
        // Without a tuning tap the lines are never used; keep them small.
        let delay = hasTuning ? Self.maximumDelay : 0
        delayedMic = AlignedChannel(maximumDelay: delay, chunk: Self.chunkFrames)
        referenceMono = AlignedChannel(maximumDelay: delay, chunk: Self.chunkFrames)
        let silence = UnsafePointer(delayedMic.samples)
        channelPointers = .allocate(capacity: 3)
        channelPointers.initialize(repeating: silence, count: 3)
        karaoke = KaraokeMix(
            enabled: routes.contains { $0.tap == .karaoke }, gains: karaokeGains, chunk: Self.chunkFrames)
    }

    /// Ends every route's window `total` frames after its start: for a driver that learns the
    /// timeline's length only when its input ends (offline, a pipe). - Realtime: never; only
    /// while no driver renders.
    func limitWindows(toFrames total: Int) {
        for k in 0..<count { windowEnd[k] = min(windowEnd[k], windowStart[k] + total) }
    }

    deinit {
        taps.deallocate()
        windowStart.deallocate()
        windowEnd.deallocate()
        inputs.deinitialize(count: count)
        inputs.deallocate()
        channelPointers.deallocate()
    }

    /// Feeds one cycle of `n` frames to every recording. `speakerLeft/Right` are the far end
    /// as sent to the loudspeakers, `backingLeft/Right` the backing track's part of them (nil
    /// without one); `latency` is the engine's current latency in samples; `missed` frames of
    /// the timeline passed before this cycle without being rendered (live only).
    ///
    /// - Realtime: safe; process thread, after the engine rendered `voice`.
    @_noLocks
    mutating func record(
        mic: UnsafePointer<Float>, speakerLeft: UnsafePointer<Float>, speakerRight: UnsafePointer<Float>,
        voice: UnsafePointer<Float>, monitorLeft: UnsafePointer<Float>, monitorRight: UnsafePointer<Float>,
        backingLeft: UnsafePointer<Float>? = nil, backingRight: UnsafePointer<Float>? = nil,
        frames n: Int, latency: Int, missed: Int = 0
    ) {
        guard count > 0 else { return }
        // A gap in the timeline (cycles that never ran): silence in every file, counted.
        if missed > 0 {
            for k in 0..<count { inputs[k].skip(missed) }
        }
        var offset = 0
        while offset < n {
            let m = min(n - offset, Self.chunkFrames)
            if hasTuning { delayForTuning(mic + offset, speakerLeft + offset, speakerRight + offset, m, latency) }
            if karaoke.enabled {
                karaoke.mix(
                    voice: voice + offset, backingLeft: backingLeft.map { $0 + offset },
                    backingRight: backingRight.map { $0 + offset }, m, latency: latency)
            }
            for k in 0..<count {
                let channels: Int
                switch taps[k] {
                case .voice:
                    channelPointers[0] = voice + offset
                    channels = 1
                case .mic:
                    channelPointers[0] = mic + offset
                    channels = 1
                case .reference:
                    channelPointers[0] = speakerLeft + offset
                    channelPointers[1] = speakerRight + offset
                    channels = 2
                case .monitor:
                    channelPointers[0] = monitorLeft + offset
                    channelPointers[1] = monitorRight + offset
                    channels = 2
                case .tuning:
                    channelPointers[0] = UnsafePointer(delayedMic.samples)
                    channelPointers[1] = UnsafePointer(referenceMono.samples)
                    channelPointers[2] = voice + offset
                    channels = 3
                case .karaoke:
                    channelPointers[0] = UnsafePointer(karaoke.left.samples)
                    channelPointers[1] = UnsafePointer(karaoke.right.samples)
                    channels = 2
                }
                // The recorder was made for this tap's channel count; a mismatch is a bug upstream.
                guard inputs[k].channels == channels else { continue }
                // The part of this chunk inside the route's window.
                let first = max(0, windowStart[k] - position)
                let end = min(m, windowEnd[k] &- position)
                guard end > first else { continue }
                if first > 0 {
                    for c in 0..<channels { channelPointers[c] = channelPointers[c] + first }
                }
                inputs[k].write(UnsafePointer(channelPointers), frames: end - first)
            }
            offset += m
            position += m
        }
    }

    /// Fills `delayedMic` and `referenceMono` (mono mix of the speaker feed), both delayed by
    /// `latency` samples so they line up with the voice the engine put out this cycle.
    @inline(__always) @_noLocks
    private mutating func delayForTuning(
        _ mic: UnsafePointer<Float>, _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        _ m: Int, _ latency: Int
    ) {
        let mono = referenceMono.samples
        for i in 0..<m { mono[i] = 0.5 * (left[i] + right[i]) }
        delayedMic.align(mic, m, latency: latency)
        referenceMono.align(mono, m, latency: latency)
    }
}
