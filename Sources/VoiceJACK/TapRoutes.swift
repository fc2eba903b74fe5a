import VoiceRT
import VoiceRecorder

/// The recordings the process thread feeds and what each one takes from the cycle's buffers.
///
/// Built on the main thread with everything allocated and pre-touched (the input table, the
/// channel-pointer scratch, the tuning tap's delay lines and mono mix), then handed to the
/// process thread as an ownership token in `ProcessContext.routeSlot` (the engine's scheme: the
/// process thread takes it for one cycle and puts it back; the main thread swaps it only while it
/// is in the slot, and frees the old set itself).
///
/// The tuning tap delays mic and reference by the engine's latency (read every cycle from
/// `ProcessContext.voiceLatency`, which the buffer-size callback updates when it installs a new
/// engine) so that the three channels line up with the processed voice.
///
/// - Realtime: `record` is safe and process thread only, while it holds the token; `init` and
///   `deinit` are main thread.
struct TapRoutes: ~Copyable {
    /// Most recordings one set holds.
    static let capacity = 8
    /// Frames routed at a time; longer cycles are routed in chunks of this size.
    static let chunkFrames = 8_192
    /// Longest tuning delay in samples (the engine's latency is a few frames of 5-21 ms; this is
    /// well over a second at 48 kHz).
    static let maximumDelay = 65_536

    let count: Int
    let taps: UnsafeMutablePointer<Tap>
    let inputs: UnsafeMutablePointer<RecorderInput>
    /// Channel pointers handed to `RecorderInput.write` (at most 3 channels).
    let channelPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    let hasTuning: Bool
    var micDelay: DelayLine
    var referenceDelay: DelayLine
    /// `chunkFrames` samples each: the delayed mic, the (delayed in place) reference mono mix.
    let delayedMic: UnsafeMutablePointer<Float>
    let referenceMono: UnsafeMutablePointer<Float>
    /// The karaoke tap's mix and delay lines (see TapRoutes+Karaoke.swift).
    var karaoke: KaraokeMix

    /// A set feeding `routes` (at most `capacity`), the karaoke tap mixed with `karaokeGains`
    /// (linear voice and backing gains). - Realtime: never (allocates).
    init(_ routes: [(tap: Tap, input: RecorderInput)], karaokeGains: (voice: Float, backing: Float) = (1, 1)) {
        precondition(routes.count <= Self.capacity, "at most \(Self.capacity) recordings")
        count = routes.count
        taps = .allocate(capacity: Self.capacity)
        taps.initialize(repeating: .voice, count: Self.capacity)
        inputs = .allocate(capacity: max(1, routes.count))
        for (i, route) in routes.enumerated() {
            taps[i] = route.tap
            (inputs + i).initialize(to: route.input)
        }
        hasTuning = routes.contains { $0.tap == .tuning }
        // Without a tuning tap the lines are never used; keep them small.
        let delay = hasTuning ? Self.maximumDelay : 0
        micDelay = DelayLine(maximumDelay: delay, maximumBlock: Self.chunkFrames)
        referenceDelay = DelayLine(maximumDelay: delay, maximumBlock: Self.chunkFrames)
        delayedMic = .allocate(capacity: Self.chunkFrames)
        delayedMic.initialize(repeating: 0, count: Self.chunkFrames)
        referenceMono = .allocate(capacity: Self.chunkFrames)
        referenceMono.initialize(repeating: 0, count: Self.chunkFrames)
        let silence = UnsafePointer(delayedMic)
        channelPointers = .allocate(capacity: 3)
        channelPointers.initialize(repeating: silence, count: 3)
        karaoke = KaraokeMix(enabled: routes.contains { $0.tap == .karaoke }, gains: karaokeGains, chunk: Self.chunkFrames)
    }

    deinit {
        taps.deallocate()
        inputs.deinitialize(count: count)
        inputs.deallocate()
        delayedMic.deallocate()
        referenceMono.deallocate()
        channelPointers.deallocate()
        karaoke.deallocate()
    }

    /// Feeds one cycle of `n` frames to every recording. `speakerLeft/Right` are the far end
    /// as sent to the loudspeakers, `backingLeft/Right` the backing track's part of them (nil
    /// without one); `latency` is the engine's current latency in samples.
    ///
    /// - Realtime: safe; process thread, after the engine rendered `voice`.
    @_noLocks
    mutating func record(
        mic: UnsafePointer<Float>, speakerLeft: UnsafePointer<Float>, speakerRight: UnsafePointer<Float>,
        voice: UnsafePointer<Float>, monitorLeft: UnsafePointer<Float>, monitorRight: UnsafePointer<Float>,
        backingLeft: UnsafePointer<Float>? = nil, backingRight: UnsafePointer<Float>? = nil,
        frames n: Int, latency: Int
    ) {
        guard count > 0 else { return }
        var offset = 0
        while offset < n {
            let m = min(n - offset, Self.chunkFrames)
            if hasTuning { delayForTuning(mic + offset, speakerLeft + offset, speakerRight + offset, m, latency) }
            if karaoke.enabled {
                karaoke.mix(voice: voice + offset, backingLeft: backingLeft.map { $0 + offset },
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
                    channelPointers[0] = UnsafePointer(delayedMic)
                    channelPointers[1] = UnsafePointer(referenceMono)
                    channelPointers[2] = voice + offset
                    channels = 3
                case .karaoke:
                    channelPointers[0] = UnsafePointer(karaoke.left)
                    channelPointers[1] = UnsafePointer(karaoke.right)
                    channels = 2
                }
                // The recorder was made for this tap's channel count; a mismatch is a bug upstream.
                if inputs[k].channels == channels {
                    inputs[k].write(UnsafePointer(channelPointers), frames: m)
                }
            }
            offset += m
        }
    }

    /// Fills `delayedMic` and `referenceMono` (mono mix of the speaker feed), both delayed by
    /// `latency` samples so they line up with the voice the engine put out this cycle.
    @inline(__always) @_noLocks
    private mutating func delayForTuning(
        _ mic: UnsafePointer<Float>, _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        _ m: Int, _ latency: Int
    ) {
        micDelay.setDelay(latency)
        referenceDelay.setDelay(latency)
        for i in 0..<m { referenceMono[i] = 0.5 * (left[i] + right[i]) }
        micDelay.process(mic, delayedMic, m)
        referenceDelay.process(referenceMono, referenceMono, m)
    }
}
