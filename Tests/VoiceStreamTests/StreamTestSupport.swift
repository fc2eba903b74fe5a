import Foundation
import Synchronization
import VoiceFiles
import VoiceRecorder
import VoiceStream
import VoiceTestSupport

/// The known signal: a 200 Hz → 3 kHz linear chirp at `quiet` amplitude, then the same chirp
/// 12 dB louder; `seconds` in all. Non-periodic, so cross-correlation finds one lag.
func chirpWithStep(seconds: Double, rate: Int, quiet: Float = 0.1) -> [Float] {
    let half = Int(seconds * Double(rate) / 2)
    let sweep = (0..<half).map { i -> Float in
        let t = Double(i) / Double(rate)
        let duration = Double(half) / Double(rate)
        let phase = 2 * Double.pi * (200 * t + (3000 - 200) * t * t / (2 * duration))
        return Float(sin(phase))
    }
    return sweep.map { $0 * quiet } + sweep.map { $0 * quiet * 4 }
}

/// Monotonic nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// A test thread standing in for the process thread: writes `period`-frame blocks in real time
/// (as JACK periods at `rate`) into each input, silence until `go` is set (into the first
/// `leadInputs` inputs only), then `signal` into all, then finishes every input. Times every
/// write call.
final class PacedProducer: @unchecked Sendable {
    let inputs: [RecorderInput]
    let signal: [Float]
    let period: Int
    let rate: Int
    let leadInputs: Int
    /// Set by the test to start the signal (silence is written until then).
    let go = Atomic<Bool>(false)
    /// Periods of the signal written so far (any thread).
    let signalPeriods = Atomic<Int>(0)
    /// Worst single `write` duration per input, in nanoseconds (read after `wait`).
    private(set) var worstWrite: [UInt64]
    private(set) var silentFrames = 0
    private let done = DispatchSemaphore(value: 0)

    init(inputs: [RecorderInput], signal: [Float], period: Int = 256, rate: Int = 48_000, leadInputs: Int? = nil) {
        self.inputs = inputs
        self.leadInputs = leadInputs ?? inputs.count
        self.signal = signal
        self.period = period
        self.rate = rate
        worstWrite = Array(repeating: 0, count: inputs.count)
    }

    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "test-producer"
        thread.start()
    }

    /// Waits until the producer finished every input.
    func wait() { done.wait() }

    private func run() {
        let silence = [Float](repeating: 0, count: period)
        let periodNanoseconds = UInt64(period) * 1_000_000_000 / UInt64(rate)
        var deadline = monotonicNanoseconds()
        var position = 0
        while position < signal.count {
            let playing = go.load(ordering: .acquiring)
            let n = playing ? min(period, signal.count - position) : period
            if playing {
                signal.withUnsafeBufferPointer { write($0.baseAddress! + position, n, to: inputs.count) }
                position += n
                signalPeriods.add(1, ordering: .relaxed)
            } else {
                silence.withUnsafeBufferPointer { write($0.baseAddress!, n, to: leadInputs) }
                silentFrames += n
            }
            deadline += periodNanoseconds
            var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
        }
        for input in inputs { input.finish() }
    }

    private func write(_ samples: UnsafePointer<Float>, _ frames: Int, to count: Int) {
        var channel = samples
        withUnsafePointer(to: &channel) { channels in
            for (k, input) in inputs.prefix(count).enumerated() {
                let start = monotonicNanoseconds()
                input.write(channels, frames: frames)
                worstWrite[k] = max(worstWrite[k], monotonicNanoseconds() - start)
            }
        }
    }
}

/// Where `decoded` carries `reference`: the offset of its first sample, found from the onset
/// (first sample over `threshold`) and refined by cross-correlation within ±20 ms.
func alignment(of reference: [Float], in decoded: [Float], rate: Int, threshold: Float = 0.02) -> Int? {
    guard let refOnset = reference.firstIndex(where: { abs($0) > threshold }),
        let decOnset = decoded.firstIndex(where: { abs($0) > threshold })
    else { return nil }
    let coarse = decOnset - refOnset
    let window = rate / 4
    let start = refOnset + rate / 10
    guard coarse + start + window + rate / 50 < decoded.count, start + window < reference.count else { return nil }
    let slice = Array(reference[start..<start + window])
    let target = Array(decoded[(coarse + start)..<(coarse + start + window)])
    let fine = Measure.lag(of: target, relativeTo: slice, maxLag: rate / 50)
    return coarse + fine
}

/// Normalised cross-correlation of `a` and `b` over their common length (1 = same shape).
func normalisedCorrelation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
    var ab = 0.0
    var aa = 0.0
    var bb = 0.0
    for (x, y) in zip(a, b) {
        ab += Double(x) * Double(y)
        aa += Double(x) * Double(x)
        bb += Double(y) * Double(y)
    }
    return ab / max((aa * bb).squareRoot(), 1e-30)
}

/// Options that make the fault tests quick: short backoff, connect timeout and drain.
func quickOptions() -> StreamOptions {
    var options = StreamOptions()
    options.initialBackoff = 0.25
    options.maximumBackoff = 1
    options.drainTimeout = 3
    return options
}

/// Settings for `mount` on `server`, the password in the URL.
func target(
    _ server: IcecastServer, mount: String, password: String? = nil, format: String? = nil, bitrate: Int? = nil
) throws
    -> StreamTarget
{
    var settings = StreamSettings(
        url: "icecast://source:\(password ?? server.sourcePassword)@127.0.0.1:\(server.port)\(mount)")
    settings.format = format
    settings.bitrateKbps = bitrate
    settings.name = "voicerack test"
    settings.genre = "Test"
    return try settings.resolve()
}

/// The local copy next to a stream: a mono float WAV recording at `path`.
func localRecording(_ path: String, rate: Int) throws -> Recording {
    try Recording(
        spec: RecordingSpec(path: path, format: try AudioFormat(parsing: "wav:float"), sampleRate: rate, channels: 1))
}

/// A paced producer writing `signal` into `inputs` from its first period on (no lead).
func startedProducer(_ inputs: [RecorderInput], _ signal: [Float], rate: Int) -> PacedProducer {
    let producer = PacedProducer(inputs: inputs, signal: signal, rate: rate)
    producer.go.store(true, ordering: .relaxed)
    producer.start()
    return producer
}
