import VoiceEngine

/// The worst block the chain itself needs, with the machine's stalls taken out.
///
/// Every run renders the same audio through a fresh engine, so block n does the same work in
/// every run. Each block's time is the minimum over the runs: a stall of the machine (this VM
/// stalls for 2–5 ms at random) hits one run's block n, not every run's. The worst of those
/// minima is what the chain needs at most; one run's worst block is mostly the machine's.
///
/// - Realtime: never; the bench's thread.
struct WorstBlock {
    /// Seconds of the worst block (the largest per-block minimum).
    let worst: Double
    /// Which block that is (0-based), to find it again.
    let index: Int
    /// The 99.9th percentile of the per-block minima, in seconds.
    let percentile999: Double

    /// Measures `runs` runs of `configuration` over `audio` in blocks of `block` samples.
    static func measure(
        _ bench: Bench, _ configuration: EngineConfiguration, _ audio: Scenario, block: Int, runs: Int
    ) throws -> WorstBlock {
        var fastest = [Double](repeating: .infinity, count: audio.blocks(block))
        for _ in 0..<max(1, runs) {
            let engine = try VoiceEngine(configuration: configuration, sampleRate: bench.rate, blockSize: block)
            var n = 0
            bench.renderAll(engine, audio, block: block) { seconds in
                fastest[n] = min(fastest[n], seconds)
                n += 1
            }
        }
        let index = fastest.indices.max { fastest[$0] < fastest[$1] } ?? 0
        let sorted = fastest.sorted()
        let rank = min(sorted.count - 1, Int(Double(sorted.count) * 0.999))
        return WorstBlock(worst: fastest[index], index: index, percentile999: sorted[rank])
    }
}
