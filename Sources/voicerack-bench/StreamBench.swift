import Foundation
import VoiceFiles
import VoiceStream

/// The streamer's CPU cost per audio second, paced like a JACK client: a producer thread hands
/// 256-frame periods of a file (mono) to a `LiveStream` in real time, the sender thread encodes
/// and sends to Icecast. Prints CPU seconds (user + system, whole process) per audio second;
/// scripts/dev/bench-stream.sh runs ffmpeg on the same file to the same server alongside.
enum StreamBench {
    static func run(url: String, format: String, kbps: Int, input: String, block: Int) throws {
        var settings = StreamSettings(url: url)
        settings.format = format
        settings.bitrateKbps = kbps
        let target = try settings.resolve()
        let audio = try AudioFileContents.read(input)
        let rate = audio.sampleRate
        let samples = audio.channels[0]
        try LiveStream.check(target, sampleRate: rate)
        let start = RecorderBench.cpuSeconds()
        let stream = try LiveStream.start(target, sampleRate: rate, channels: 1)
        let began = DispatchTime.now().uptimeNanoseconds
        let period = UInt64(block) * 1_000_000_000 / UInt64(rate)
        let cycles = samples.count / block
        samples.withUnsafeBufferPointer { s in
            for cycle in 0..<cycles {
                // Sleep until this cycle's deadline, as a JACK period would.
                let due = began + UInt64(cycle) * period
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(UInt32((due - now) / 1_000)) }
                var channel = s.baseAddress! + cycle * block
                withUnsafePointer(to: &channel) { stream.input.write($0, frames: block) }
            }
        }
        stream.finishProducer()
        let status = stream.waitUntilFinished()
        let cpu = RecorderBench.cpuSeconds() - start
        let seconds = Double(cycles * block) / Double(rate)
        print(
            "voicerack \(format) \(kbps) kb/s: "
                + String(
                    format: "%.1f s at %d Hz: %.3f s CPU = %.2f ms per audio second", seconds, rate, cpu,
                    cpu * 1000 / seconds)
                + "; \(status.text), \(status.bytesSent) bytes")
    }
}
