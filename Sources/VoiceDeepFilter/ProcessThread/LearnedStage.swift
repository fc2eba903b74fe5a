import VoiceRT

/// The process thread's side of the learned suppressor: it gathers the model's input into hops,
/// hands each to the worker through `LearnedHops`, and gives out the worker's hops a fixed
/// `latency` later, or, for a hop the worker has not returned in time, the classical suppressor's
/// output for that hop (the fallback, delayed alike), crossfading at every switch.
///
/// ```
/// model input ─► hops ─► toWorker ─► [worker: model] ─► fromWorker ─┐
///                                                                   ├─► crossfade ─► output
/// fallback (classical) ─► delay line (latency) ─────────────────────┘
/// ```
///
/// Timing, in samples of the stream: hop `n` holds input `[n·hop, (n+1)·hop)` and is sent when
/// full; its output goes out at `[n·hop + lead, (n+1)·hop + lead)`, `lead` = hop + `slack` + fade,
/// so the worker has `slack` samples of stream (at least one host block, see `init`) between the
/// hop's sending and the moment the process thread decides, `fade` samples before the hop is due,
/// whether it came back. The model's output itself lags its input by `model.latency`, so the
/// stage's latency is `lead + model.latency`, and the fallback is delayed by that much.
///
/// A returned hop fades in over its first `fade` samples; a missing one makes the learned output
/// fade out over the last `fade` samples of the hop before (which is there), so neither switch
/// steps. Missed hops are counted (`missedHops`), as are hops given out (`learnedHops`).
///
/// `Mode.synchronous` (the offline driver: no deadline, and reproducible output) runs the model
/// in place when a hop is full, so no hop is ever missed and the output is the same each run.
///
/// - Realtime: `process` is safe in `.worker` mode; `init` and `deallocate` are not (main thread).
public struct LearnedStage: @unchecked Sendable {
    /// How hops reach the model.
    public enum Mode: Sendable {
        /// Through the rings to the worker thread (live).
        case worker
        /// In place on the calling thread when a hop is full (offline; never live).
        case synchronous
    }

    public let hops: LearnedHops
    let model: LearnedModel
    let mode: Mode
    let hop: Int
    let fade: Int
    /// Samples from a hop's first input sample to its first output sample (see the type).
    let lead: Int
    /// The stage's latency: `lead + model.latency`.
    public let latency: Int

    // Input side.
    let gathering: UnsafeMutablePointer<Float>
    var gathered = 0
    var nextToSend = 0
    /// Per slot: out with the worker (sent, not yet taken back).
    let busy: UnsafeMutablePointer<Bool>

    // Fallback delay line (power-of-two ring).
    let delay: UnsafeMutablePointer<Float>
    let delayMask: Int
    var delayWrite = 0

    // Output side.
    var position = 0
    let current: UnsafeMutablePointer<Float>
    let upcoming: UnsafeMutablePointer<Float>
    var currentValid = false
    var upcomingValid = false
    /// A hop number taken from `fromWorker` ahead of its turn (its predecessor was never sent).
    var held = -1
    var gain: Float = 0
    var target: Float = 0
    let step: Float

    /// Hops given out from the model, and hops that fell back (the worker missed them).
    public private(set) var learnedHops = 0
    public private(set) var missedHops = 0

    /// A stage for `model`, in blocks of up to `blockSize` and frames of `frameSize` samples,
    /// crossfading over `fadeSamples`. `slots` hops may be out with the worker at once.
    /// - Realtime: never (allocates); main thread.
    public init(model: LearnedModel, mode: Mode, blockSize: Int, frameSize: Int, fadeSamples: Int, slots: Int = 16) {
        self.model = model
        self.mode = mode
        hop = model.hop
        fade = max(1, min(fadeSamples, model.hop / 2))
        // Slack: a hop sent in one cycle is decided on in a later one. Its last sample is sent
        // within a frame processed in the cycle of that frame's last sample; the decision falls
        // at least `slack` later in the stream, in a frame whose last sample is more than a
        // block after the sending frame's, so in a later cycle.
        let slack = blockSize + frameSize
        lead = hop + slack + fade
        latency = lead + model.latency
        hops = LearnedHops(hop: hop, slots: slots)
        gathering = .zeroed(hop)
        busy = .allocate(capacity: slots)
        busy.initialize(repeating: false, count: slots)
        var size = 1
        while size < latency + 1 { size <<= 1 }
        delay = .zeroed(size)
        delayMask = size - 1
        current = .zeroed(hop)
        upcoming = .zeroed(hop)
        step = 1 / Float(fade)
    }

    /// Frees the buffers. - Realtime: never; once, after the worker has stopped.
    public func deallocate() {
        hops.deallocate()
        gathering.deallocate()
        busy.deallocate()
        delay.deallocate()
        current.deallocate()
        upcoming.deallocate()
    }

    /// Takes `count` samples of the model's `input` and of the classical `fallback` (same
    /// time), and writes `count` samples of the stage's output, `latency` samples late, into
    /// `output` (which may be `fallback`).
    ///
    /// - Realtime: safe in `.worker` mode (never waits: a hop that is not back is a fallback).
    @_noLocks
    public mutating func process(
        input: UnsafePointer<Float>, fallback: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int
    ) {
        for i in 0..<count {
            delay[delayWrite & delayMask] = fallback[i]
            let late = delay[(delayWrite &- latency) & delayMask]
            delayWrite &+= 1
            gathering[gathered] = input[i]
            gathered += 1
            if gathered == hop {
                send()
                gathered = 0
            }
            output[i] = nextOutput(fallback: late)
        }
    }

    /// One output sample: the hop boundaries' decisions, then the crossfade.
    @inline(__always) @_noLocks
    mutating func nextOutput(fallback: Float) -> Float {
        let relative = position - lead
        position += 1
        let ahead = relative + fade
        if ahead >= 0 && ahead % hop == 0 {
            upcomingValid = take(ahead / hop)
            if !upcomingValid { target = 0 }
        }
        if relative >= 0 && relative % hop == 0 {
            for k in 0..<hop { current[k] = upcoming[k] }
            currentValid = upcomingValid
            if currentValid {
                target = 1
                learnedHops += 1
            } else {
                missedHops += 1
            }
        }
        if gain != target { gain = gain < target ? min(target, gain + step) : max(target, gain - step) }
        guard currentValid && relative >= 0 else { return fallback }
        let learned = current[relative % hop]
        return fallback + gain * (learned - fallback)
    }

    /// Hands the gathered hop to the model: to the worker, or in place when synchronous.
    @inline(__always) @_noLocks
    mutating func send() {
        let n = nextToSend
        nextToSend += 1
        let slot = n % hops.slots
        guard !busy[slot] else { return }  // the worker still has hop n - slots: n will be missed
        let hopInput = hops.input(n)
        for k in 0..<hop { hopInput[k] = gathering[k] }
        switch mode {
        case .worker:
            guard hops.toWorker.producer.push(n) else { return }
            busy[slot] = true
            hops.wakeWorker()
        case .synchronous:
            model.run(hopInput, hops.output(n))
            busy[slot] = true
            _ = hops.fromWorker.producer.push(n)
        }
    }

    /// Whether hop `n` came back; if so, it is copied into `upcoming`. Hops back too late are
    /// dropped; one back ahead of its turn is held.
    @inline(__always) @_noLocks
    mutating func take(_ n: Int) -> Bool {
        while true {
            let back: Int
            if held >= 0 {
                back = held
            } else if let popped = hops.fromWorker.consumer.pop() {
                back = popped
            } else {
                return false
            }
            if back > n {
                held = back
                return false
            }
            held = -1
            busy[back % hops.slots] = false
            if back == n {
                let hopOutput = hops.output(n)
                for k in 0..<hop { upcoming[k] = hopOutput[k] }
                return true
            }
        }
    }

    /// Zeroes the counters (after the engine's warm-up). - Realtime: safe.
    @_noLocks
    public mutating func resetCounters() {
        learnedHops = 0
        missedHops = 0
    }
}
