import CRealtimeCheck
import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// An LV2 plugin's cycle inside RealtimeSanitizer's region: the copy in, the atom buffers'
/// reset, run() through the RT edge, the worker's response delivery, the copy or average out,
/// the block splitting, and control changes and latency reads between blocks.
///
/// RealtimeSanitizer sees the plugin's own code too, so the plugin is x42's dpl#mono (x42-plugins):
/// declared lv2:hardRTCapable, with atom ports and URID map, and a run() that does nothing unsafe.
/// A second case runs SWH's fastLookaheadLimiter (swh-lv2: two inputs and two outputs, averaged),
/// whose run() is plain arithmetic though it does not declare hardRTCapable, and a third LSP's
/// gate_mono (lsp-plugins-lv2: hard-RT, URID map, worker and state interfaces, a threaded worker).
@Suite("Real-time safety: LV2 units", .serialized)
struct LV2RealtimeTests {
    @Test(
        "warm LV2 cycles with control changes do nothing real-time unsafe",
        arguments: [
            ("http://gareus.org/oss/lv2/dpl#mono", "threshold", Float(-6), Float(-1), true),
            ("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter", "limit", Float(-6), Float(0), true),
            // No look-ahead set, so the gate reports 0 samples.
            ("http://lsp-plug.in/plugins/lv2/gate_mono", "gt", Float(0.01), Float(0.1), false),
        ])
    func lv2CyclesAreRealtimeSafe(uri: String, symbol: String, low: Float, high: Float, delays: Bool) throws {
        let world = LV2World(path: "/usr/lib/lv2")
        let rate = 48_000
        let block = 256
        let unit = try LV2Unit(
            world: world, uri: uri,
            configuration: LV2Configuration(sampleRate: Double(rate), maximumBlockSize: block, worker: .threaded))
        let control = try unit.controlIndex(symbol)
        let x = Signals.speechLike(count: rate * 4, sampleRate: rate, rms: 0.3, seed: 17)
        var buffer = [Float](repeating: 0, count: 2 * block)
        let warm = 20
        var cycles = 0
        var latencies = 0
        buffer.withUnsafeMutableBufferPointer { b in
            // Blocks alternate between one maximum block and two (split into two runs).
            var start = 0
            var k = 0
            while start + 2 * block <= x.count {
                let frames = k % 2 == 0 ? block : 2 * block
                for i in 0..<frames { b[i] = x[start + i] }
                let inRegion = k >= warm
                if inRegion { rtcheck_enter() }
                if k % 50 == 0 { unit.setControl(control, (k / 50) % 2 == 0 ? low : high) }
                unit.process(b.baseAddress!, frames: frames)
                latencies += unit.latency()
                if inRegion {
                    rtcheck_exit()
                    cycles += 1
                }
                start += frames
                k += 1
            }
        }
        #expect(cycles > 400)
        #expect((latencies > 0) == delays, "the latency port was read")
        #expect(unit.control(control) == low || unit.control(control) == high)
    }
}
