import CJack
import Synchronization
import VoiceEngine

/// The registered ports, as the process thread sees them.
///
/// `jack_port_t` is an incomplete C type, so Swift imports its pointer as `OpaquePointer`.
struct PortSet: BitwiseCopyable {
    let mic: OpaquePointer
    let farLeft: OpaquePointer
    let farRight: OpaquePointer
    let voice: OpaquePointer
    let speakerLeft: OpaquePointer
    let speakerRight: OpaquePointer
    let monitorLeft: OpaquePointer
    let monitorRight: OpaquePointer
}

/// Everything JACK's callbacks touch, in one plain struct allocated once at a stable address
/// (atomics cannot move) and passed to JACK as the callbacks' `arg`.
///
/// Never a class or `Unmanaged`: retain/release on the process thread can take a lock.
///
/// The engine travels between threads as an ownership token in `engineSlot`: the process thread
/// takes it (`exchange(nil)`) for the length of one cycle and puts it back; the control side swaps
/// it only with a compare-exchange that expects the token to be in the slot, so it can never
/// replace (and free) an engine the process thread is rendering. While the slot is empty the
/// process thread outputs silence on `voice_out`. Unlike a paused/acknowledged flag pair this does
/// not need another process cycle to run, so it also works while the server has stopped cycling
/// (as it does around a buffer-size change).
///
/// - Realtime: the process thread reads `ports` and uses the atomics; everything else is set up
///   before activation and torn down after deactivation, on the main thread.
struct ProcessContext: ~Copyable, @unchecked Sendable {
    let ports: PortSet
    /// The current engine's `EngineState`, or nil while the control side holds it or the
    /// process thread is rendering with it.
    let engineSlot: Atomic<UnsafeMutableRawPointer?>
    /// Process cycles that ran without an engine (silence on `voice_out`).
    let silentCycles = Atomic<Int>(0)
    /// Cycles whose block was larger than the engine's (between a buffer-size change and the
    /// swap); `voice_out` was silent for them.
    let oversizedCycles = Atomic<Int>(0)
    /// xruns JACK reported (xrun callback, notification thread).
    let xruns = Atomic<Int>(0)
    /// Samples of latency `voice_out` adds to `mic_in` (the engine's latency); read by the
    /// latency callback.
    let voiceLatency: Atomic<Int>
    /// Set when the latency changed and the main thread should ask JACK to recompute latencies
    /// (not done from the notification thread: calling into the server there can deadlock).
    let latencyChanged = Atomic<Bool>(false)
    /// Set by the shutdown callback; `shutdownReason` holds its NUL-terminated reason then.
    let serverShutDown = Atomic<Bool>(false)
    /// The sample rate JACK last announced (its sample-rate callback); 0 before the first call.
    let announcedSampleRate = Atomic<Int>(0)
    /// The recordings the process thread feeds (`TapRoutes`), as an ownership token like
    /// `engineSlot`: nil while the process thread routes a cycle. Never nil otherwise (an empty
    /// set when nothing records).
    let routeSlot: Atomic<UnsafeMutableRawPointer?>
    /// The server's sample rate (Hz), for the period in `timing`.
    let sampleRate: Int
    /// True when the monitor carries the processed voice (it then has the voice's latency);
    /// false for the dry monitor, which adds none.
    let monitorIsProcessed: Bool
    /// How long each process cycle took.
    let timing = CycleTiming()
    /// The backing track the process thread adds to speaker_out (nil: none). Set only before
    /// activation (`JACKClient.attachBacking`); its owner keeps it alive until the client closed.
    var backing: UnsafeMutablePointer<BackingSource>?
    /// Preallocated so the shutdown callback, which must be async-signal-safe, only copies bytes.
    let shutdownReason: UnsafeMutablePointer<CChar>
    static let shutdownReasonCapacity = 512

    init(
        ports: PortSet, engine: UnsafeMutablePointer<EngineState>, latency: Int,
        routes: UnsafeMutablePointer<TapRoutes>, sampleRate: Int, monitorIsProcessed: Bool
    ) {
        self.monitorIsProcessed = monitorIsProcessed
        self.ports = ports
        engineSlot = Atomic(UnsafeMutableRawPointer(engine))
        routeSlot = Atomic(UnsafeMutableRawPointer(routes))
        self.sampleRate = sampleRate
        voiceLatency = Atomic(latency)
        shutdownReason = .allocate(capacity: Self.shutdownReasonCapacity)
        shutdownReason.initialize(repeating: 0, count: Self.shutdownReasonCapacity)
    }

    deinit { shutdownReason.deallocate() }
}
