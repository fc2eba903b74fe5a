import CJack
import Synchronization
import VoiceCycle

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

    /// All eight, in `PortLayout` order (inputs, then outputs).
    var all: [OpaquePointer] {
        [mic, farLeft, farRight, voice, speakerLeft, speakerRight, monitorLeft, monitorRight]
    }
}

/// Everything JACK's callbacks touch, in one plain struct allocated once at a stable address
/// (atomics cannot move) and passed to JACK as the callbacks' `arg`: the ports, the cycle to
/// render, the timing and what the server told us.
///
/// Never a class or `Unmanaged`: retain/release on the process thread can take a lock.
///
/// - Realtime: the process thread reads `ports` and `cycle` and uses the atomics; `cycle` is set
///   before activation, on the main thread.
struct DriverContext: ~Copyable, @unchecked Sendable {
    let ports: PortSet
    /// The client, for the frame time (`cycleStartFrame`).
    let client: OpaquePointer
    /// The frame time at which the next cycle is expected (the last cycle's start plus its
    /// frames); `UInt32.max` before the first cycle. Process thread only.
    let expectedFrame = Atomic<UInt32>(.max)
    /// When (monotonic clock, ns) the next cycle is expected to start: the last cycle's start
    /// plus its period. Process thread only; checks frame-time jumps against the wall clock.
    let expectedStartNanoseconds = Atomic<Int>(0)
    /// Frames of the server's timeline that passed without a cycle of ours (counted by the
    /// process thread; padded with silence in the recordings).
    let framesMissed = Atomic<Int>(0)
    /// The last cycle's size; 0 before the first. Process thread only.
    let lastCycleFrames = Atomic<Int>(0)
    /// Of `framesMissed`, those missed just before the first cycle at a new buffer size, and at
    /// how many sizes: PipeWire's JACK runs no process callback until the client has been told
    /// of the new quantum (its buffer-size callback returned), so those cycles were never ours.
    let framesMissedAtSizeChange = Atomic<Int>(0)
    let sizeChangesWithFramesMissed = Atomic<Int>(0)
    /// The cycle the process callback renders (nil until `JACKDriver.start`).
    var cycle: UnsafeMutablePointer<CycleState>?
    /// xruns JACK reported (xrun callback, notification thread), outside freewheel.
    let xruns = Atomic<Int>(0)
    /// True while the server freewheels (set by the freewheel callback before the first
    /// freewheel cycle, cleared after the last).
    let freewheeling = Atomic<Bool>(false)
    /// Times the server started freewheeling, and the cycles run freewheeling (not timed).
    let freewheelStarts = Atomic<Int>(0)
    let freewheelCycles = Atomic<Int>(0)
    /// Set by a shutdown callback; `shutdownReason` holds its NUL-terminated reason then.
    let serverShutDown = Atomic<Bool>(false)
    /// Ports registered or unregistered anywhere in the graph (port-registration callback,
    /// notification thread); the main thread relinks when it moves (`--pipewire`).
    let portRegistrations = Atomic<Int>(0)
    /// The sample rate JACK last announced (its sample-rate callback); 0 before the first call.
    let announcedSampleRate = Atomic<Int>(0)
    /// The server's sample rate (Hz), for the period in `timing`.
    let sampleRate: Int
    /// How long each process cycle took.
    let timing = CycleTiming()
    /// Preallocated so the shutdown callback, which must be async-signal-safe, only copies bytes.
    let shutdownReason: UnsafeMutablePointer<CChar>
    static let shutdownReasonCapacity = 512

    init(ports: PortSet, client: OpaquePointer, sampleRate: Int) {
        self.ports = ports
        self.client = client
        self.sampleRate = sampleRate
        shutdownReason = .allocate(capacity: Self.shutdownReasonCapacity)
        shutdownReason.initialize(repeating: 0, count: Self.shutdownReasonCapacity)
    }

    deinit { shutdownReason.deallocate() }
}
