import Synchronization

/// The peer's ports, as the process thread sees them.
struct PeerPorts: BitwiseCopyable {
    /// Most target outputs one peer records.
    static let maxListened = 5
    let mic: OpaquePointer
    let farLeft: OpaquePointer
    let farRight: OpaquePointer
    /// The input ports that record the target's outputs, `listenedCount` of them (allocated once).
    let listened: UnsafeMutablePointer<OpaquePointer>
    let listenedCount: Int
}

/// Everything the process callback touches, allocated once at a stable address (atomics cannot
/// move) and handed to JACK as the callbacks' `arg`.
///
/// The audio is preloaded and zero-padded to `length` frames, and the recording buffer is
/// preallocated with the same length, so a cycle only copies samples: no allocation, no lock,
/// no branch on file ends.
///
/// - Realtime: the process thread reads the buffers and ports and updates the atomics; the main
///   thread sets everything up before activation, sets `started`, polls `position` and reads
///   `recorded` only after deactivation.
struct PlaybackContext: ~Copyable, @unchecked Sendable {
    let ports: PeerPorts
    /// Mic samples, `length` of them (zero past the file's end).
    let mic: UnsafeMutablePointer<Float>
    /// Far-end left and right samples, `length` each.
    let farLeft: UnsafeMutablePointer<Float>
    let farRight: UnsafeMutablePointer<Float>
    /// What the listened ports received, one plane of `length` per port: frame n of each was
    /// read in the cycle that played mic/far frame n.
    let recorded: UnsafeMutablePointer<Float>
    /// Frames to play and record (inputs plus the tail).
    let length: Int
    /// Set by the main thread once every connection is made; playback starts at the next cycle.
    let started = Atomic<Bool>(false)
    /// Frames played so far. Written only by the process thread.
    let position = Atomic<Int>(0)
    /// Cycles that played something, and the smallest and largest period among them (frames):
    /// they show whether a buffer-size change happened during playback.
    let playedCycles = Atomic<Int>(0)
    let smallestPeriod = Atomic<Int>(Int.max)
    let largestPeriod = Atomic<Int>(0)
    /// The period of the first played cycle, and the position (frames) of the first played cycle
    /// whose period differed from it (-1: none), so a test knows where a buffer-size change
    /// reached the recording. Written only by the process thread.
    let firstPeriod = Atomic<Int>(0)
    let periodChangedAt = Atomic<Int>(-1)
    /// xruns JACK reported since activation (notification thread).
    let xruns = Atomic<Int>(0)
    /// Set when the server shut down or threw the client out.
    let serverShutDown = Atomic<Bool>(false)
    /// `--freewheel`: play only while the server freewheels.
    let playsInFreewheel: Bool
    /// True while the server freewheels (freewheel callback, notification thread).
    let freewheeling = Atomic<Bool>(false)
    /// Frames of every cycle run while freewheeling (the played ones and any after them).
    let freewheelFrames = Atomic<Int>(0)
    /// `--room`: playback starts at the first sample of the first listened port louder than
    /// `onsetLevel` (the far end reaching the speakers), so the mic file's talker keeps its place
    /// against the far end's pauses. Set once by the process thread.
    let startsOnSound: Bool
    let sounded = Atomic<Bool>(false)
    /// `--room`: the echo of what the first listened port plays, added to the mic.
    let room: RoomEcho
    /// -80 dBFS: above a digital silence, under any far end's first sample that counts.
    let onsetLevel: Float = 1e-4

    init(
        ports: PeerPorts, mic: [Float], farLeft: [Float], farRight: [Float], length: Int, freewheel: Bool,
        room impulse: [Float]? = nil
    ) {
        self.ports = ports
        playsInFreewheel = freewheel
        startsOnSound = impulse != nil
        room = RoomEcho(impulse: impulse ?? [])
        self.length = length
        func preload(_ samples: [Float]) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: length)
            p.initialize(repeating: 0, count: length)
            for i in 0..<min(length, samples.count) { p[i] = samples[i] }
            return p
        }
        self.mic = preload(mic)
        self.farLeft = preload(farLeft)
        self.farRight = preload(farRight)
        recorded = .allocate(capacity: length * ports.listenedCount)
        recorded.initialize(repeating: 0, count: length * ports.listenedCount)
    }

    deinit {
        mic.deallocate()
        farLeft.deallocate()
        farRight.deallocate()
        recorded.deallocate()
        ports.listened.deallocate()
    }
}
