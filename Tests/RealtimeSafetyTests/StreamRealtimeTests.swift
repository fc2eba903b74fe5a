import CRealtimeCheck
import Foundation
import Testing
import VoiceRecorder
import VoiceStream

/// The stream's producer end inside RealtimeSanitizer's region: warm writes into a `LiveStream`'s
/// input while its sender thread fails to connect and backs off (nothing listens on the port),
/// then `finish()`. The process thread only copies into preallocated blocks, whatever the network
/// does.
@Suite("Real-time safety: stream input", .serialized)
struct StreamRealtimeTests {
    @Test("writes into a stream's input do nothing real-time unsafe while the sender reconnects")
    func streamInputIsRealtimeSafe() throws {
        let rate = 48_000
        let block = 256
        // A port nothing listens on: bind to 0, read it, release it.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) + getsockname(fd, $0, &length) }
        }
        close(fd)
        var settings = StreamSettings(
            url: "icecast://source:pw@127.0.0.1:\(UInt16(bigEndian: address.sin_port))/rt.opus")
        settings.channels = 2
        var options = StreamOptions()
        options.initialBackoff = 0.05
        options.maximumBackoff = 0.1
        let stream = try LiveStream.start(try settings.resolve(), sampleRate: rate, channels: 1, options: options)
        let signal = (0..<block).map { Float(sin(Double($0) * 0.07)) * 0.3 }
        var cycles = 0
        signal.withUnsafeBufferPointer { s in
            var channel = s.baseAddress!
            withUnsafePointer(to: &channel) { channels in
                // Warm-up outside the region (first-use paths of the runtime), then 3 s of audio in 256-frame periods (1 ms apart).
                stream.input.write(channels, frames: block)
                for _ in 0..<(3 * rate / block) {
                    rtcheck_enter()
                    stream.input.write(channels, frames: block)
                    rtcheck_exit()
                    cycles += 1
                    usleep(1_000)
                }
                rtcheck_enter()
                stream.input.finish()
                rtcheck_exit()
            }
        }
        let status = stream.waitUntilFinished()
        #expect(cycles > 500)
        #expect(status.secondsOnAir == 0)
        #expect(status.secondsLost > 1, "audio while not connected is counted: \(status.text)")
        #expect(stream.framesLostByProducer == 0)
    }
}
