import Foundation
import VoiceJACK

/// The server's frame counter sampled against the monotonic clock, so a test can bound in audio
/// frames what happened between two instants another process timed (`osc-peer.py`'s
/// `time.monotonic()`).
///
/// A test that bounds a recording's length by wall time fails whenever the server falls behind
/// wall time: a dummy jackd on a loaded machine stalls, then catches up, and a take made during
/// the stall is shorter than the wall-clock span around it. Sampled here every `interval`
/// seconds, each sample (t, f) gives the frame counter f in force at t; since the counter never
/// goes back, the counter at any instant lies between the last sample before it and the first
/// after it.
///
/// Thread-safe: the sampler runs on its own thread; the queries take the lock.
final class ServerFrameClock: @unchecked Sendable {
    let sampleRate: Int
    private let driver: JACKDriver
    private let lock = NSLock()
    private var samples: [(seconds: Double, frames: UInt32)] = []
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    /// Opens a client named `name` on `server` (never activated: it only reads the timer) and
    /// starts sampling.
    init(server: String, name: String = "vr-clock", interval: Double = 0.0005) throws {
        driver = try JACKDriver(options: .init(name: name, server: server))
        sampleRate = driver.sampleRate
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let frames = driver.serverFrameTime
                let now = Self.monotonicSeconds()
                lock.withLock { samples.append((now, frames)) }
                Thread.sleep(forTimeInterval: interval)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops sampling and closes the client. Idempotent.
    func stop() {
        guard lock.withLock({ running }) else { return }
        lock.withLock { running = false }
        finished.wait()
        driver.close()
    }

    deinit { stop() }

    /// `CLOCK_MONOTONIC` in seconds: the clock Python's `time.monotonic()` reads.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Waits until a sample later than `seconds` exists (at most `timeout` seconds); false if none came.
    func waitPast(_ seconds: Double, timeout: Double = 5) -> Bool {
        let deadline = Self.monotonicSeconds() + timeout
        while Self.monotonicSeconds() < deadline {
            if lock.withLock({ (samples.last?.seconds ?? 0) > seconds }) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// The fewest frames the server can have run between instants `from` and `to`: the counter's
    /// least value at `to` less its most at `from`. Nil without samples around both.
    func leastFrames(from: Double, to: Double) -> Int? {
        lock.withLock {
            guard let end = samples.last(where: { $0.seconds <= to }),
                let start = samples.first(where: { $0.seconds >= from })
            else { return nil }
            return Int(Int32(bitPattern: end.frames &- start.frames))
        }
    }

    /// The most frames the server can have run between instants `from` and `to`: the counter's
    /// most value at `to` less its least at `from`. Nil without samples around both.
    func mostFrames(from: Double, to: Double) -> Int? {
        lock.withLock {
            guard let end = samples.first(where: { $0.seconds >= to }),
                let start = samples.last(where: { $0.seconds <= from })
            else { return nil }
            return Int(Int32(bitPattern: end.frames &- start.frames))
        }
    }
}
