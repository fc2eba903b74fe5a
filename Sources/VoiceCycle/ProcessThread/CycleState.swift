import Synchronization
import VoiceEngine

/// Everything the process thread touches to render a cycle, in one plain struct allocated once
/// at a stable address (atomics cannot move). Drivers get a pointer to it; the owner on the
/// control side is `CycleHost`.
///
/// Never a class or `Unmanaged`: retain/release on the process thread can take a lock.
///
/// The engine travels between threads as an ownership token in `engineSlot`: the process thread
/// takes it (`exchange(nil)`) for the length of one cycle and puts it back; the control side swaps
/// it only with a compare-exchange that expects the token to be in the slot, so it can never
/// replace (and free) an engine the process thread is rendering. While the slot is empty the
/// cycle passes the far end to the speakers and is silent elsewhere. Unlike a paused/acknowledged
/// flag pair this does not need another process cycle to run, so it also works while a driver
/// has stopped cycling (as JACK does around a buffer-size change). The recordings (`TapRoutes`)
/// travel the same way in `routeSlot`.
///
/// - Realtime: the process thread calls `render` and uses the atomics; `backing` is set before a
///   driver starts and cleared after it stopped, on the main thread.
public struct CycleState: ~Copyable, @unchecked Sendable {
    /// The current engine's `EngineState`, or nil while the control side holds it or the
    /// process thread is rendering with it.
    let engineSlot: Atomic<UnsafeMutableRawPointer?>
    /// The recordings the process thread feeds (`TapRoutes`), as an ownership token like
    /// `engineSlot`. Never nil otherwise (an empty set when nothing records).
    let routeSlot: Atomic<UnsafeMutableRawPointer?>
    /// The backing track the cycle adds to the speakers (nil: none).
    var backing: UnsafeMutablePointer<BackingSource>?
    /// Cycles that ran without an engine (a swap held it): voice and monitor were silent.
    public let silentCycles = Atomic<Int>(0)
    /// Cycles whose block was larger than the engine's (between a buffer-size change and the
    /// swap): rendered in pieces of the engine's block, nothing silenced.
    public let oversizedCycles = Atomic<Int>(0)
    /// Samples of latency `voice_out` adds to `mic_in` (the engine's latency). Drivers report it
    /// (JACK's latency callback); the taps line up with it.
    public let voiceLatency: Atomic<Int>
    /// True when the monitor carries the processed voice (it then has the voice's latency);
    /// false for the dry monitor, which adds none.
    public let monitorIsProcessed: Bool
    /// Set when `voiceLatency` changed and the driver should tell its server (the driver clears it).
    public let latencyChanged = Atomic<Bool>(false)
    /// The voice's mute, asked for by the control side (`CycleHost.setVoiceMuted`).
    let muteRequested = Atomic<Bool>(false)
    /// The mute's glide and the muted-talker detector (process thread only).
    var mute: VoiceMute
    /// True while the talker is detected talking into the mute.
    public let mutedTalking = Atomic<Bool>(false)
    /// "Talking while muted" events so far (each phrase into the mute counts once).
    public let mutedTalkEvents = Atomic<Int>(0)
    /// When the recordings are fed (`RecordingGate` raw value), set by the control side.
    let recordingGate = Atomic<Int>(RecordingGate.always.rawValue)
    /// Freewheel cycles whose consumers had no room after `freewheelWaitLimit` of waiting (the
    /// writer is stuck); they then drop as in real time.
    public let freewheelWaitsAbandoned = Atomic<Int>(0)
    /// A wait was given up in this freewheel run: the rest of it drops as in real time, so a
    /// consumer that stopped for good (a hung disk, a dead stream) cannot hold every cycle 5 s.
    /// Process thread only; cleared by the first cycle outside freewheel.
    var freewheelWaitAbandoned = false

    init(
        engine: UnsafeMutablePointer<EngineState>, latency: Int, routes: UnsafeMutablePointer<TapRoutes>,
        monitorIsProcessed: Bool, sampleRate: Int
    ) {
        mute = VoiceMute(sampleRate: sampleRate)
        engineSlot = Atomic(UnsafeMutableRawPointer(engine))
        routeSlot = Atomic(UnsafeMutableRawPointer(routes))
        voiceLatency = Atomic(latency)
        self.monitorIsProcessed = monitorIsProcessed
    }

    /// Samples the monitor adds to `mic_in`: the voice's latency when it carries the processed
    /// voice, none for the dry one. - Realtime: safe.
    public var monitorLatency: Int { monitorIsProcessed ? voiceLatency.load(ordering: .relaxed) : 0 }
}
