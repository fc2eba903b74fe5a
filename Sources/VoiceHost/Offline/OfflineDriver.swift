import Foundation
import Glibc
import VoiceCycle

/// The offline driver: renders a session's cycle over files, block by block, on the calling
/// thread: the second `AudioDriver` beside JACK's, running the very same `CycleState.render`.
///
/// Each cycle it reads one block of mic and reference (`OfflineSources`), lets the session wait
/// until its recordings have room (`beforeCycle`: offline nothing may be dropped, so this is the
/// clearly marked place where the producer waits, which the process thread never does), renders
/// the cycle, and counts the timeline. After the mic ends it renders `tailFrames` more frames of
/// silence, so the taps that lag the mic by the engine's latency get their last frames.
///
/// - Realtime: never (this is the offline driver; it calls the same `render` JACK's thread does).
final class OfflineDriver: AudioDriver {
    let sampleRate: Int
    let blockSize: Int
    private let sources: OfflineSources
    private let tailFrames: Int
    private let beforeCycle: () throws(HostError) -> Void
    private let afterMicEnded: (Int) throws(HostError) -> Void
    private let progress: ((Double) -> Void)?
    /// The first error of a run (rethrown by `run`).
    private(set) var failure: HostError?
    private var buffers: [UnsafeMutablePointer<Float>] = []

    /// `afterMicEnded` gets the mic's length once it ended; `beforeCycle` runs before every cycle.
    init(
        sources: OfflineSources, blockSize: Int, tailFrames: Int, progress: ((Double) -> Void)?,
        beforeCycle: @escaping () throws(HostError) -> Void, afterMicEnded: @escaping (Int) throws(HostError) -> Void
    ) {
        self.sources = sources
        sampleRate = sources.sampleRate
        self.blockSize = blockSize
        self.tailFrames = tailFrames
        self.progress = progress
        self.beforeCycle = beforeCycle
        self.afterMicEnded = afterMicEnded
    }

    deinit { for b in buffers { b.deallocate() } }

    /// Renders every block of the files; `failure` holds what stopped it early.
    func start(_ client: any DriverClient) throws(DriverError) {
        do {
            try run(client.cycle)
        } catch {
            failure = error
            throw DriverError(error.message)
        }
    }

    /// Nothing runs between calls: `start` returns when the files are done.
    func stop() {}

    private func run(_ cycle: UnsafeMutablePointer<CycleState>) throws(HostError) {
        let n = blockSize
        buffers = (0..<8).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: n)
            p.initialize(repeating: 0, count: n)
            return p
        }
        let io = CycleIO(
            mic: buffers[0], farLeft: buffers[1], farRight: buffers[2], voice: buffers[3], speakerLeft: buffers[4],
            speakerRight: buffers[5], monitorLeft: buffers[6], monitorRight: buffers[7], frames: n)
        var micEnded = false
        var tail = 0
        var lastPercent = -1
        while tail < tailFrames {
            try Interruption.check()
            if micEnded {
                for b in buffers[0..<3] { b.update(repeating: 0, count: n) }
                tail += n
            } else {
                let got = try sources.read(n: n, micBlock: buffers[0], left: buffers[1], right: buffers[2])
                if got < n {
                    micEnded = true
                    try sources.checkEnd()
                    guard sources.micFramesRead > 0 else {
                        throw HostError(.data, "\(sources.micPath): the file holds no audio frames")
                    }
                    try afterMicEnded(sources.micFramesRead)
                    tail = n - got
                }
            }
            try beforeCycle()
            cycle.pointee.render(io)
            if let progress, let total = sources.micFrames {
                let percent = min(100, sources.micFramesRead * 100 / max(1, total))
                if percent != lastPercent {
                    lastPercent = percent
                    progress(Double(percent) / 100)
                }
            }
        }
    }
}

/// Ctrl-C and SIGTERM during an offline run: blocked while it runs and checked between cycles,
/// so the run stops cleanly, removes its partial files and exits 130.
///
/// - Realtime: never; main thread.
enum Interruption {
    /// Blocks SIGINT and SIGTERM for the calling thread (the offline run's). Call once.
    static func block() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Throws `.interrupted` when SIGINT or SIGTERM is pending (and takes it).
    static func check() throws(HostError) {
        var pending = sigset_t()
        sigpending(&pending)
        for s in [SIGINT, SIGTERM] where sigismember(&pending, s) == 1 {
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, s)
            var zero = timespec()
            _ = sigtimedwait(&only, nil, &zero)
            throw HostError(
                .interrupted, "interrupted by \(s == SIGINT ? "SIGINT" : "SIGTERM"); partial output removed")
        }
    }
}
