import Foundation
import Synchronization
import VoiceRecorder

/// A stream to Icecast fed by a producer exactly as a recording is: the process thread writes
/// into `input` (a `RecorderInput`: preallocated blocks, never waits, counts what it could not
/// store) and a sender thread encodes and sends.
///
/// Lifecycle (the same as `Recording`): `check` once before the client opens (bad settings 64,
/// server unreachable 69, credentials refused 77), `start`, route `input` to a tap, then
/// `requestStop()` (the producer finishes on its next write) or `finishProducer()` (nothing writes
/// any more), then `waitUntilFinished()`. A stream that stops mid-run (refused credentials,
/// encoder error) only says so in `status` and `takeMessages()`; the producer writes on unharmed.
///
/// - Realtime: only `input` is for the process thread; everything here is for other threads.
public final class LiveStream: @unchecked Sendable {
    public let target: StreamTarget
    /// The process thread's end, as a recording's.
    public let input: RecorderInput
    private let buffer: BlockBuffer
    private let sender: StreamSender
    private let senderThread = ConsumerThread(name: "voicerack-stream")
    private let final = Mutex<StreamStatus?>(nil)

    /// Connects once as a source and disconnects, so the CLI can refuse a bad server, mount or
    /// password before anything opens. Waits at most `timeout` seconds.
    /// - Realtime: never (blocks the calling thread).
    public static func check(_ target: StreamTarget, sampleRate: Int, timeout: Double = 5) throws(StreamError) {
        _ = try makeEncoder(target, sampleRate: sampleRate)
        let connection = try ShoutConnection(target, sampleRate: sampleRate)
        let deadline = StreamSender.now() + timeout
        var step = connection.open()
        while step == .pending && StreamSender.now() < deadline {
            usleep(5_000)
            step = connection.poll()
        }
        switch step {
        case .connected: connection.close()
        case .failed(let error): throw error
        case .pending: throw .unreachable(server: target.server, detail: "no answer within \(Int(timeout)) s")
        }
    }

    /// Starts streaming `channels`-channel audio at `sampleRate` Hz to `target`; the sender
    /// thread connects in the background. Throws (64) when the encoder refuses the settings.
    public static func start(
        _ target: StreamTarget, sampleRate: Int, channels: Int, options: StreamOptions = StreamOptions()
    ) throws(StreamError) -> LiveStream {
        guard channels >= 1 else { throw .badSetting(key: "channels", message: "the tap has no channels") }
        _ = try makeEncoder(target, sampleRate: sampleRate)
        return LiveStream(target: target, sampleRate: sampleRate, channels: channels, options: options)
    }

    private init(target: StreamTarget, sampleRate: Int, channels: Int, options: StreamOptions) {
        self.target = target
        let blocks = BlockBuffer.blockCount(
            holding: options.bufferSeconds, sampleRate: sampleRate, blockFrames: options.blockFrames)
        buffer = BlockBuffer(channels: channels, blockFrames: options.blockFrames, blockCount: blocks)
        input = buffer.input
        sender = StreamSender(
            target: target, sampleRate: sampleRate, inputChannels: channels, buffer: buffer, options: options)
        senderThread.start { [sender] in sender.run() }
    }

    /// The state and counters now (any thread).
    public var status: StreamStatus { sender.published.withLock { $0 } }

    /// Frames the producer could not store because the sender fell behind (they count as lost on
    /// air too).
    public var framesLostByProducer: Int { buffer.framesLost }

    /// State changes since the last call, for the log ("stream live: ...", "stream dropped: ...,
    /// retrying in 2 s", "stream stopped: ..."). Never contain the password.
    public func takeMessages() -> [String] {
        sender.messages.withLock { m in
            defer { m.removeAll() }
            return m
        }
    }

    /// Asks the producer to finish on its next `write`.
    public func requestStop() { buffer.requestStop() }

    /// Finishes on the producer's behalf; only when no producer thread calls `write` any more.
    public func finishProducer() { input.finish() }

    /// Waits until the end of the stream is sent (bounded by `drainTimeout`) and the connection
    /// closed (after `requestStop` or `finishProducer`), then returns the final status.
    public func waitUntilFinished() -> StreamStatus {
        if let done = final.withLock({ $0 }) { return done }
        senderThread.wait()
        let s = status
        final.withLock { $0 = s }
        return s
    }
}
