import Foundation
import VoiceEngine
import VoiceLV2
import VoiceTestSupport
import VoiceUnits

/// Hosting overhead of `LV2Unit.process` over the plugin's bare run() on the same audio, and of a
/// chain slot's call (the engine's `PluginUnit`, made by `LV2PluginHost`: one indirect call more).
///
/// Three instances of each plugin with the same settings process the same speech-like signal block
/// by block: one through `process` (mono mapping, atom reset, run, worker delivery), one as the
/// engine's chain slot calls it, one through `runBare` (audio ports connected straight to the
/// signal, in place too, so every side touches the same memory, and run alone). On a shared machine a
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
        print(
            "plugin                                                  hosted s    bare s   ratio  overhead   chain s  overhead"
        )
        let host = LV2PluginHost(world: world, worker: .synchronous)
        let spec = ProcessSpec(sampleRate: Double(rate), maximumBlockSize: block)
        let buffers = (0..<3).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: signal.count) }
        defer { buffers.forEach { $0.deallocate() } }
        for uri in uris {
            let hosted = try LV2Unit(world: world, uri: uri, configuration: configuration)
            let bare = try LV2Unit(world: world, uri: uri, configuration: configuration)
            let slot = try host.makeUnit(PluginUnitSettings(uri: uri), spec: spec).unit
            defer { slot.release() }
            let chunks = signal.count / chunk
            // Fastest time per chunk: hosted, bare, chain slot.
            var fastest = [[Double]](repeating: [Double](repeating: .infinity, count: chunks), count: 3)
            for r in 0..<repeats {
                for b in buffers { _ = b.initialize(from: signal) }
                for c in 0..<chunks {
                    let start = c * chunk
                    // The order rotates, so no side always runs first (warm caches) or last.
                    for k in 0..<3 {
                        let side = (r + c + k) % 3
                        let at = buffers[side].baseAddress! + start
                        let time =
                            side == 0
                            ? hostedPass(hosted, at, frames: chunk, block: block)
                            : side == 1
                                ? barePass(bare, at, frames: chunk, block: block)
                                : chainPass(slot, at, frames: chunk, block: block)
                        fastest[side][c] = min(fastest[side][c], time)
                    }
                }
            }
            let (hostedTime, bareTime, chainTime) = (
                fastest[0].reduce(0, +), fastest[1].reduce(0, +), fastest[2].reduce(0, +)
            )
            let name = uri.padding(toLength: max(54, uri.count), withPad: " ", startingAt: 0)
            print(
                String(
                    format: "%@  %8.4f  %8.4f  %6.4f  %+7.2f%%  %8.4f  %+7.2f%%", name, hostedTime, bareTime,
                    hostedTime / bareTime, 100 * (hostedTime / bareTime - 1), chainTime,
                    100 * (chainTime / bareTime - 1)))
        }
    }

    /// The same as the engine's chain slot runs it (`PluginUnit.process`); thread CPU seconds.
    @inline(never)
    static func chainPass(_ unit: PluginUnit, _ buffer: UnsafeMutablePointer<Float>, frames: Int, block: Int) -> Double
    {
        blocksTimed(frames: frames, block: block) { unit.process(buffer + $0, frames: block) }
    }

    /// `frames` samples at `buffer` through `LV2Unit.process`, in place, block by block; returns
    /// the thread CPU seconds.
    @inline(never)
    static func hostedPass(
        _ unit: borrowing LV2Unit, _ buffer: UnsafeMutablePointer<Float>, frames: Int, block: Int
    ) -> Double {
        blocksTimed(frames: frames, block: block) { unit.process(buffer + $0, frames: block) }
    }

    /// The same through the bare run(), in place; returns the thread CPU seconds.
    @inline(never)
    static func barePass(
        _ unit: borrowing LV2Unit, _ buffer: UnsafeMutablePointer<Float>, frames: Int, block: Int
    ) -> Double {
        blocksTimed(frames: frames, block: block) { unit.runBare(buffer + $0, buffer + $0, frames: block) }
    }

    /// The thread CPU seconds of `pass` run once per block of `frames` samples, given the block's
    /// first sample: the loop every pass above times (inlined, so each pass is timed as written).
    @inline(__always)
    static func blocksTimed(frames: Int, block: Int, _ pass: (Int) -> Void) -> Double {
        let t0 = threadCPUTime()
        for start in stride(from: 0, to: frames, by: block) { pass(start) }
        return threadCPUTime() - t0
    }
}
