import Foundation
import Synchronization
import VoiceRecorder

/// The streaming thread: drains the blocks the producer handed over, encodes them and sends
/// them with libshout in non-blocking mode, and keeps the connection up.
///
/// ```
/// connecting ──► live ──(send fails / queue stuck)──► reconnecting ──(backoff 1, 2, 4 … 30 s)──► live
///      │                                                   │
///      └──(refused N times, bad format)──► stopped ◄───────┘        (producer finished) ──► stopped
/// ```
///
/// Nothing here can hold up the producer: blocks that arrive while not live, or while libshout's
/// queue is over `maximumQueueSeconds`, are taken and dropped at once (counted as lost on air),
/// so the producer always finds free blocks. The thread polls every 5 ms; the process thread
/// never wakes it (no semaphore, no mutex on its side).
///
/// - Realtime: never; runs on its own thread.
final class StreamSender: @unchecked Sendable {
    private let target: StreamTarget
    private let sampleRate: Int
    private let buffer: BlockBuffer
    private let options: StreamOptions
    private var adapter: ChannelAdapter

    /// Published for other threads (the sender updates it every pass).
    let published = Mutex<StreamStatus>(StreamStatus())
    /// Messages for the log (state changes), taken by the main thread.
    let messages = Mutex<[String]>([])

    private enum Phase {
        case waiting(until: Double)
        case connecting(since: Double)
        case live
        case stopped
    }
    private var phase: Phase = .waiting(until: 0)
    private var status = StreamStatus()
    private var connection: ShoutConnection?
    private var encoder: (any StreamEncoder)?
    private var attempt = 0
    private var refusals = 0
    private var everLive = false
    private var framesOnAir = 0
    private var framesLost = 0
    /// Bytes handed to libshout on the current connection, and sent on earlier ones.
    private var bytesHanded = 0
    private var bytesEarlier = 0
    /// When libshout's queue went over the limit (nil while under it).
    private var overLimitSince: Double?
    private var rateHistory: [(time: Double, bytes: Int)] = []

    init(target: StreamTarget, sampleRate: Int, inputChannels: Int, buffer: BlockBuffer, options: StreamOptions) {
        self.target = target
        self.sampleRate = sampleRate
        self.buffer = buffer
        self.options = options
        adapter = ChannelAdapter(inputChannels: inputChannels, outputChannels: target.channels)
    }

    /// Bytes of encoded audio libshout may queue before new audio is dropped.
    private var queueLimit: Int { Int(options.maximumQueueSeconds * Double(target.bitrateKbps) * 125) }

    /// The thread body: runs until the producer finished and the end of the stream is sent.
    func run() {
        while true {
            let done = buffer.producerDone
            var any = false
            while let block = buffer.nextBlock() {
                any = true
                take(block)
                buffer.release(block)
            }
            if done {
                lose(buffer.finalLoss)
                finishStream()
                publish()
                return
            }
            step()
            publish()
            if !any { usleep(5_000) }
        }
    }

    // MARK: Audio

    /// Encodes and sends one block, or counts it lost when it cannot go on air now.
    private func take(_ block: BlockBuffer.FilledBlock) {
        lose(block.lostBefore)
        guard case .live = phase, let connection, let encoder else {
            if case .stopped = phase { return }
            lose(block.frames)
            return
        }
        if connection.queuedBytes > queueLimit {
            lose(block.frames)
            return
        }
        do {
            try adapter.adapt(block.samples, frames: block.frames) { (samples) throws(StreamError) in
                try encoder.encode(samples, frames: block.frames)
            }
        } catch {
            stop(error)
            return
        }
        framesOnAir += block.frames
        send(encoder.takeOutput())
    }

    private func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, let connection else { return }
        bytesHanded += bytes.count
        if case .failed(let error) = connection.send(bytes) { drop(error) }
    }

    private func lose(_ frames: Int) {
        guard frames > 0 else { return }
        if case .stopped = phase { return }
        framesLost += frames
    }

    // MARK: Connection

    /// Moves the connection on: starts an attempt when its time came, advances one under way,
    /// flushes libshout's queue while live and notices a queue that stopped moving.
    private func step() {
        let now = Self.now()
        switch phase {
        case .waiting(let until) where now >= until:
            connect(now)
        case .connecting(let since):
            guard let connection else { return }
            let result = connection.poll()
            if result == .pending && now - since > options.connectTimeout {
                failed(.unreachable(server: target.server, detail: "no answer within \(Int(options.connectTimeout)) s"))
            } else {
                connected(result)
            }
        case .live:
            guard let connection else { return }
            if case .failed(let error) = connection.flush() { return drop(error) }
            if connection.queuedBytes <= queueLimit {
                overLimitSince = nil
            } else if let since = overLimitSince, now - since > options.stallTimeout {
                drop(
                    .unreachable(
                        server: target.server, detail: "the network took nothing for \(Int(options.stallTimeout)) s"))
            } else if overLimitSince == nil {
                overLimitSince = now
            }
        default: return
        }
    }

    private func connect(_ now: Double) {
        do {
            connection = try ShoutConnection(target, sampleRate: sampleRate)
        } catch {
            return stop(error)
        }
        phase = .connecting(since: now)
        if !everLive && attempt == 0 { status.state = .connecting }
        connected(connection!.open())
    }

    /// Handles the outcome of a connection step.
    private func connected(_ result: ShoutConnection.Step) {
        switch result {
        case .pending: return
        case .failed(let error): failed(error)
        case .connected:
            do {
                encoder = try makeEncoder(target, sampleRate: sampleRate)
            } catch {
                return stop(error)
            }
            if everLive { status.reconnects += 1 }
            everLive = true
            attempt = 0
            refusals = 0
            bytesHanded = 0
            overLimitSince = nil
            phase = .live
            status.state = .live
            note("stream live: \(target)")
            send(encoder!.takeOutput())
        }
    }

    /// A connection attempt failed: retry after the backoff, or stop for good.
    private func failed(_ error: StreamError) {
        connection = nil
        switch error {
        case .refused:
            refusals += 1
            if refusals >= options.refusalsBeforeStop { return stop(error) }
        case .unsupported, .badSetting: return stop(error)
        case .unreachable: break
        }
        retry(error)
    }

    /// The live connection broke: what still waited in libshout's queue never went on air.
    private func drop(_ error: StreamError) {
        if let connection { settleQueue(of: connection) }
        connection = nil
        encoder = nil
        bytesHanded = 0
        retry(error)
    }

    /// Closes the books on `connection`, which is going away: the bytes libshout still queues
    /// never go on air, so the frames they hold (their length at the target's bitrate) move from
    /// on air to lost, and the rest count as sent. Returns the frames moved.
    @discardableResult
    private func settleQueue(of connection: ShoutConnection) -> Int {
        let queued = connection.queuedBytes
        bytesEarlier += bytesHanded - queued
        bytesHanded = 0
        let seconds = Double(queued) / (Double(target.bitrateKbps) * 125)
        let frames = min(framesOnAir, Int(seconds * Double(sampleRate)))
        framesOnAir -= frames
        framesLost += frames
        return frames
    }

    private func retry(_ error: StreamError) {
        attempt += 1
        let delay = options.backoff(attempt: attempt)
        phase = .waiting(until: Self.now() + delay)
        let reason = Self.reason(error)
        status.state = .reconnecting(attempt: attempt, retryIn: delay, reason: reason)
        note(
            "stream \(everLive ? "dropped" : "not connected"): \(reason); retrying in \(Self.seconds(delay)) (attempt \(attempt))"
        )
    }

    /// Stops for good; the producer goes on, its blocks are taken and dropped from now on.
    private func stop(_ error: StreamError) {
        connection = nil
        encoder = nil
        phase = .stopped
        status.error = error
        status.state = .stopped(reason: Self.reason(error))
        note("stream stopped: \(error.description.replacingOccurrences(of: "stream: ", with: ""))")
    }

    /// The producer finished: encodes the tail, lets the queue empty (bounded), closes.
    private func finishStream() {
        if case .live = phase, let connection, let encoder {
            encoder.finish()
            send(encoder.takeOutput())
            let deadline = Self.now() + options.drainTimeout
            while self.connection != nil, connection.queuedBytes > 0, Self.now() < deadline {
                if case .failed = connection.flush() { break }
                usleep(5_000)
            }
            let unsent = settleQueue(of: connection)
            connection.close()
            if unsent > 0 {
                note(
                    "stream: the last \(Self.seconds(Double(unsent) / Double(sampleRate))) did not leave the network queue "
                        + "within \(Self.seconds(options.drainTimeout)); counted as lost")
            }
        }
        connection = nil
        encoder = nil
        if case .stopped = phase { return }
        phase = .stopped
        status.state = .stopped(reason: "stopped")
        note("stream stopped: \(Self.clock(framesOnAir, sampleRate)) on air")
    }

    // MARK: Status

    private func publish() {
        let now = Self.now()
        status.secondsOnAir = Double(framesOnAir) / Double(sampleRate)
        status.secondsLost = Double(framesLost) / Double(sampleRate)
        status.bytesSent = bytesEarlier + max(0, bytesHanded - (connection?.queuedBytes ?? 0))
        rateHistory.append((now, status.bytesSent))
        while let first = rateHistory.first, now - first.time > 5 { rateHistory.removeFirst() }
        if let first = rateHistory.first, now - first.time >= 1 {
            status.bitrateKbps = Double(status.bytesSent - first.bytes) * 8 / 1000 / (now - first.time)
        }
        let snapshot = status
        published.withLock { $0 = snapshot }
    }

    private func note(_ message: String) { messages.withLock { $0.append(message) } }

    /// A short reason for the status line.
    private static func reason(_ error: StreamError) -> String {
        switch error {
        case .refused: "credentials refused"
        case .unreachable(_, let detail): detail
        case .unsupported(_, let detail): detail
        case .badSetting(let key, let message): "\(key): \(message)"
        }
    }

    private static func seconds(_ s: Double) -> String { String(format: s < 1 ? "%.2f s" : "%.0f s", s) }

    private static func clock(_ frames: Int, _ rate: Int) -> String {
        StreamStatus.clock(Double(frames) / Double(rate))
    }

    /// Monotonic seconds.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
