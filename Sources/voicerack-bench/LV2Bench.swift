import Foundation
import VoiceLV2
import VoiceTestSupport

/// Hosting overhead of `LV2Unit.process` over the plugin's bare run() on the same audio.
///
/// Two instances of each plugin with the same settings process the same speech-like signal block
/// by block: one through `process` (mono mapping, atom reset, run, worker delivery), one through
/// `runBare` (audio ports connected straight to the signal, in place too, so both sides touch the
/// same memory, and run alone). On a shared machine a
/// whole-run timing drifts by several per cent, so the two are interleaved finely: the signal is
/// cut into chunks of about 0.1 s, each chunk is timed on both sides (the order swapping each
/// time), every pass over the signal is repeated `repeat` times, and each chunk keeps its
/// fastest time per side (what an interrupt or another process did not disturb). The totals of
/// those minima give the ratio process / bare.
enum LV2Bench {
    static func run(uris: [String], seconds: Int, rate: Int, block: Int, repeats: Int) throws {
        let world = LV2World()
        let configuration = LV2Configuration(
            sampleRate: Double(rate), maximumBlockSize: block, fixedBlockSize: true, worker: .synchronous)
        let signal = Signals.speechLike(count: seconds * rate, sampleRate: rate, rms: 0.3, seed: 23)
        let chunk = max(1, rate / 10 / block) * block
        print(
            "voicerack-bench --lv2: \(seconds) s at \(rate) Hz, blocks of \(block), chunks of \(chunk) samples, "
                + "fastest of \(repeats) per chunk, thread CPU time")
        print("plugin                                                  hosted s    bare s   ratio  overhead")
        let hostedBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: signal.count)
        let bareBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: signal.count)
        defer { [hostedBuffer, bareBuffer].forEach { $0.deallocate() } }
        for uri in uris {
            let hosted = try LV2Unit(world: world, uri: uri, configuration: configuration)
            let bare = try LV2Unit(world: world, uri: uri, configuration: configuration)
            let chunks = signal.count / chunk
            var hostedMin = [Double](repeating: .infinity, count: chunks)
            var bareMin = hostedMin
            for r in 0..<repeats {
                _ = hostedBuffer.initialize(from: signal)
                _ = bareBuffer.initialize(from: signal)
                for c in 0..<chunks {
                    let start = c * chunk
                    let h = hostedBuffer.baseAddress! + start
                    let b = bareBuffer.baseAddress! + start
                    if (r + c) % 2 == 0 {
                        hostedMin[c] = min(hostedMin[c], hostedPass(hosted, h, frames: chunk, block: block))
                        bareMin[c] = min(bareMin[c], barePass(bare, b, frames: chunk, block: block))
                    } else {
                        bareMin[c] = min(bareMin[c], barePass(bare, b, frames: chunk, block: block))
                        hostedMin[c] = min(hostedMin[c], hostedPass(hosted, h, frames: chunk, block: block))
                    }
                }
            }
            let hostedTime = hostedMin.reduce(0, +)
            let bareTime = bareMin.reduce(0, +)
            let name = uri.padding(toLength: max(54, uri.count), withPad: " ", startingAt: 0)
            print(
                String(
                    format: "%@  %8.4f  %8.4f  %6.4f  %+7.2f%%", name, hostedTime, bareTime, hostedTime / bareTime,
                    100 * (hostedTime / bareTime - 1)))
        }
    }

    /// `frames` samples at `buffer` through `LV2Unit.process`, in place, block by block; returns
    /// the thread CPU seconds.
    @inline(never)
    static func hostedPass(
        _ unit: borrowing LV2Unit, _ buffer: UnsafeMutablePointer<Float>, frames: Int, block: Int
    ) -> Double {
        let t0 = threadCPUTime()
        for start in stride(from: 0, to: frames, by: block) { unit.process(buffer + start, frames: block) }
        return threadCPUTime() - t0
    }

    /// The same through the bare run(), in place; returns the thread CPU seconds.
    @inline(never)
    static func barePass(
        _ unit: borrowing LV2Unit, _ buffer: UnsafeMutablePointer<Float>, frames: Int, block: Int
    ) -> Double {
        let t0 = threadCPUTime()
        for start in stride(from: 0, to: frames, by: block) {
            unit.runBare(buffer + start, buffer + start, frames: block)
        }
        return threadCPUTime() - t0
    }
}
