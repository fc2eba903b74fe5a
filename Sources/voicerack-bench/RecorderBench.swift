import Foundation
import VoiceFiles
import VoiceRecorder

/// The recorder's CPU cost per audio second, paced like a JACK client: a producer thread hands
/// `block` frames of `channels` channels every period (as the process callback would), the
/// writer thread writes float WAV. Prints CPU seconds (user + system, whole process) per audio
/// second; scripts/dev/bench-recorder.sh runs jack_capture the same way for comparison.
enum RecorderBench {
    static func run(channels: Int, seconds: Int, rate: Int, block: Int, folder: String) throws {
        let path = folder + "/recorder-bench-\(channels)ch.wav"
        let spec = RecordingSpec(
            path: path, format: try AudioFormat(parsing: "wav:float"), sampleRate: rate, channels: channels)
        let recording = try Recording(spec: spec)
        let signal = (0..<block).map { Float(sin(Double($0) * 0.05)) * 0.25 }
        let start = cpuSeconds()
        let began = DispatchTime.now().uptimeNanoseconds
        let period = UInt64(block) * 1_000_000_000 / UInt64(rate)
        let cycles = seconds * rate / block
        signal.withUnsafeBufferPointer { s in
            let pointers = [UnsafePointer<Float>](repeating: s.baseAddress!, count: channels)
            pointers.withUnsafeBufferPointer { p in
                for cycle in 0..<cycles {
                    // Sleep until this cycle's deadline, as a JACK period would.
                    let due = began + UInt64(cycle) * period
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { usleep(UInt32((due - now) / 1_000)) }
                    recording.input.write(p.baseAddress!, frames: block)
                }
            }
        }
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        let cpu = cpuSeconds() - start
        try? FileManager.default.removeItem(atPath: path)
        print(
            String(
                format:
                    "voicerack recorder: %d ch, %d s at %d Hz float WAV: %.3f s CPU = %.2f ms per audio second, lost %d frames",
                channels, seconds, rate, cpu, cpu * 1000 / Double(seconds), result.status.framesLost))
    }

    /// User + system CPU seconds of the whole process.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
