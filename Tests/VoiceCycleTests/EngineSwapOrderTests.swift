import Testing
import VoiceEngine

@testable import VoiceCycle

/// Engines are rebuilt off the process thread for a new buffer size, a new chain or a freewheel
/// render; built side by side, the later swap would undo the earlier one.
@Suite("Engine swaps keep every change")
struct EngineSwapOrderTests {
    @Test("a chain change right after a buffer-size change: the running engine has both, every time")
    func chainChangeBesideBufferSizeChange() throws {
        var wanted = EngineConfiguration()
        wanted.chain = [.builtIn(.limiter)]
        var lostChain = 0
        var wrongSize = 0
        // The two builds overlap on most attempts when they may run side by side.
        for _ in 0..<20 {
            let host = try CycleHost(configuration: EngineConfiguration(), sampleRate: 48_000, blockSize: 256)
            #expect(host.engine.withLock { $0.engine.configuration.chain } != wanted.chain)
            host.blockSizeChanged(to: 512)
            try host.rebuildChain(for: wanted)
            host.engineBuilder.sync {}
            let (blockSize, chain) = host.engine.withLock { ($0.engine.plan.blockSize, $0.engine.configuration.chain) }
            if chain != wanted.chain { lostChain += 1 }
            if blockSize != 512 { wrongSize += 1 }
        }
        #expect(lostChain == 0, "attempts whose running engine lost the new chain")
        #expect(wrongSize == 0, "attempts whose running engine kept the old buffer size")
    }
}
