import Foundation
import Synchronization
import VoiceEngine
import VoiceRT
import VoiceRecorder

/// A `VoiceEngine` handed between the main and a driver's notification thread under
/// `CycleHost.engine`'s mutex. The engine class is not Sendable; only one thread uses it at a time
/// (the mutex), and the process thread never sees this box (it has the state in the engine slot).
struct OwnedEngine: @unchecked Sendable {
    var engine: VoiceEngine
    /// The delay seed last posted, and to which engine (a swapped-in engine needs it again).
    var postedSeed = -1
    var seededEngine: ObjectIdentifier?
    /// What the running engine runs, live changes included; a block-size change builds the new
    /// engine from it.
    var configuration: EngineConfiguration
    init(_ engine: VoiceEngine) {
        self.engine = engine
        configuration = engine.configuration
    }
}

/// The owner of a session's cycle: builds the engine, swaps it when the block size changes,
/// sends it live changes, installs the recordings and the backing track. Drivers see it only as
/// a `DriverClient`.
///
/// - Realtime: never. Main thread, except `blockSizeChanged`, which a driver calls on its
///   notification thread and which hands the work to the engine builder's thread; the engine's
///   mutex serialises them.
public final class CycleHost: DriverClient, @unchecked Sendable {
    /// Samples per second the engine runs at.
    public let sampleRate: Int
    /// Far-end channels the engine takes (2 live; the reference file's offline).
    public let referenceChannels: Int
    /// What makes the chain's plugin units (nil: none).
    public let pluginHost: (any PluginHost)?
    public let cycle: UnsafeMutablePointer<CycleState>
    let engine: Mutex<OwnedEngine>
    /// The route set last installed in `cycle.routeSlot` (main thread only). Freed by whoever
    /// replaces it, or by deinit.
    var routes: UnsafeMutablePointer<TapRoutes>
    /// Linear voice and backing gains of the karaoke tap.
    let karaokeGains: (voice: Float, backing: Float)
    /// Why the last block-size change could not be followed (nil when fine).
    let blockSizeProblem = Mutex<String?>(nil)
    /// Builds every replacement engine (new block size, new chain, fresh for a freewheel render)
    /// off the driver's thread, one at a time, in order, so no swap undoes another.
    let engineBuilder = DispatchQueue(label: "voicerack-engine-builder")
    /// The block size the driver announced last (the builder follows the latest).
    let requestedBlockSize = Atomic<Int>(0)
    /// Swap in a fresh engine when the driver starts freewheeling (`freewheelChanged`).
    let freshEngineOnFreewheel = Atomic<Bool>(false)

    /// Builds the engine for `blockSize`-frame cycles; the karaoke tap mixes the voice and the
    /// backing at `karaokeDB` (the session's `[recording]` levels, dB). `pluginHost` makes the
    /// chain's plugin units, in this engine and every one built after it. - Realtime: never.
    public init(
        configuration: EngineConfiguration, sampleRate: Int, blockSize: Int, referenceChannels: Int = 2,
        karaokeDB: (voice: Float, backing: Float) = (0, 0), pluginHost: (any PluginHost)? = nil
    ) throws(EngineError) {
        self.sampleRate = sampleRate
        self.referenceChannels = referenceChannels
        self.pluginHost = pluginHost
        let built = try VoiceEngine(
            configuration: configuration, sampleRate: sampleRate, blockSize: blockSize,
            referenceChannels: referenceChannels, pluginHost: pluginHost)
        engine = Mutex(OwnedEngine(built))
        karaokeGains = (Decibels.amplitude(karaokeDB.voice), Decibels.amplitude(karaokeDB.backing))
        routes = .allocate(capacity: 1)
        routes.initialize(to: TapRoutes([]))
        cycle = .allocate(capacity: 1)
        cycle.initialize(
            to: CycleState(
                engine: built.state, latency: built.latency, routes: routes,
                monitorIsProcessed: configuration.monitor && configuration.monitorSource == .processed,
                sampleRate: sampleRate))
    }

    /// Frees the cycle, the routes and the engine; the driver must have stopped.
    deinit {
        cycle.deinitialize(count: 1)
        cycle.deallocate()
        routes.deinitialize(count: 1)
        routes.deallocate()
    }

    /// Most recordings the cycle can feed at once.
    public static let maximumRecordings = TapRoutes.capacity - 2

    /// Makes the cycle play `backing` into the speakers (and so into the echo reference, the
    /// monitor and the karaoke tap); nil detaches it. Only while no driver runs the cycle; the
    /// caller keeps `backing` alive until then. - Realtime: never; main thread.
    public func attachBacking(_ backing: UnsafeMutablePointer<BackingSource>?) {
        cycle.pointee.backing = backing
    }

    /// Makes the cycle feed `recordings` from its next run on, instead of whatever it fed before;
    /// an empty list stops feeding.
    ///
    /// Returns true once the old set is out of the process thread's hands: its recordings then
    /// get no more `write` calls and the caller may finish them. Returns false (and changes
    /// nothing) when the process thread kept the old set for about two seconds, which only
    /// happens if it is stuck. Works while no driver runs, too (nobody holds the token then).
    ///
    /// - Realtime: never. Main thread.
    public func route(_ recordings: [TapRoute]) -> Bool {
        precondition(recordings.count <= Self.maximumRecordings)
        let fresh = UnsafeMutablePointer<TapRoutes>.allocate(capacity: 1)
        fresh.initialize(to: TapRoutes(recordings, karaokeGains: karaokeGains))
        guard exchangeToken(cycle.pointee.routeSlot, from: routes, to: fresh) else {
            fresh.deinitialize(count: 1)
            fresh.deallocate()
            return false
        }
        routes.deinitialize(count: 1)
        routes.deallocate()
        routes = fresh
        return true
    }

    /// Ends every recording `frames` frames after its window starts (`TapRoutes.limitWindows`).
    /// - Realtime: never; only while no driver renders the cycle (the offline driver between cycles).
    public func limitRecordings(toFrames frames: Int) { routes.pointee.limitWindows(toFrames: frames) }

    /// The engine's block and frame sizes. - Realtime: never.
    public var plan: FramePlan { engine.withLock { $0.engine.plan } }

    /// Replaces `old` with `new` in `slot`, waiting while the process thread holds the token (at
    /// most one cycle). Gives up after about two seconds, which only happens if the process
    /// thread is stuck; `old` must then stay alive. - Realtime: never.
    func exchangeToken<T: ~Copyable>(
        _ slot: borrowing Atomic<UnsafeMutableRawPointer?>, from old: UnsafeMutablePointer<T>,
        to new: UnsafeMutablePointer<T>
    ) -> Bool {
        for _ in 0..<4_000 {
            // Acquiring: the process thread's last writes to the old value are visible before we
            // free it. Releasing: the new value's memory is visible to the process thread.
            if slot.compareExchange(
                expected: UnsafeMutableRawPointer(old), desired: UnsafeMutableRawPointer(new),
                ordering: .acquiringAndReleasing
            ).exchanged {
                return true
            }
            usleep(500)
        }
        return false
    }
}
