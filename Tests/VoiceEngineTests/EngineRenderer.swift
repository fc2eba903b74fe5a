import VoiceEngine

/// The engine alone over in-memory signals in host-sized blocks, for the engine's own tests.
/// (The product's offline driver is `OfflineDriver` in VoiceHost, which runs the whole cycle:
/// `CycleState.render`, as JACK's process callback does.)
///
/// Output is time-aligned with the input: the engine's first `latency` samples are dropped and
/// the input is followed by `latency` samples of silence, so sample n of the output is sample n
/// of the mic, processed, and the length is the mic's.
///
/// - Realtime: never.
struct OfflineRenderer {
    let engine: VoiceEngine

    init(engine: VoiceEngine) { self.engine = engine }

    /// Processes `mic` with `reference` (0, 1 or 2 channels, each at least as long as `mic`, or
    /// empty) and hands aligned output to `emit` chunk by chunk (at most one block each).
    /// `emit` may throw to stop early.
    func process<E: Error>(
        mic: [Float], reference: [[Float]], emit: (UnsafeBufferPointer<Float>) throws(E) -> Void
    ) throws(E) {
        let block = engine.plan.blockSize
        let total = mic.count
        var micBlock = [Float](repeating: 0, count: block)
        var left = [Float](repeating: 0, count: block)
        var right = [Float](repeating: 0, count: block)
        var voice = [Float](repeating: 0, count: block)
        let stereo = reference.count > 1
        var toSkip = engine.latency
        var written = 0
        var position = 0
        while written < total {
            Self.fill(&micBlock, from: mic, at: position)
            if !reference.isEmpty { Self.fill(&left, from: reference[0], at: position) }
            if stereo { Self.fill(&right, from: reference[1], at: position) }
            micBlock.withUnsafeBufferPointer { m in
                left.withUnsafeBufferPointer { l in
                    right.withUnsafeBufferPointer { r in
                        voice.withUnsafeMutableBufferPointer { v in
                            engine.render(
                                mic: m.baseAddress!, farLeft: l.baseAddress!,
                                farRight: stereo ? r.baseAddress! : nil, voice: v.baseAddress!, frames: block)
                        }
                    }
                }
            }
            position += block
            let skip = min(toSkip, block)
            toSkip -= skip
            let keep = min(block - skip, total - written)
            if keep > 0 {
                try voice.withUnsafeBufferPointer { (v) throws(E) in
                    try emit(UnsafeBufferPointer(rebasing: v[skip..<(skip + keep)]))
                }
                written += keep
            }
        }
    }

    /// Processes `mic` with `reference` and returns the aligned output (same length as `mic`).
    func process(mic: [Float], reference: [[Float]]) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(mic.count)
        process(mic: mic, reference: reference) { (chunk) throws(Never) in output.append(contentsOf: chunk) }
        return output
    }

    /// Copies `source[start ..< start + block.count]` into `block`, zero-padding past the end.
    static func fill(_ block: inout [Float], from source: [Float], at start: Int) {
        for i in 0..<block.count {
            let j = start + i
            block[i] = j < source.count ? source[j] : 0
        }
    }
}
