import Testing
import VoiceCycle

@testable import VoiceHost
@testable import VoiceJACK

/// The summary's callback line says which cycle was the longest and which had the most work, so a
/// warm-up cost (the first cycles) can be told from one later in the run.
@Suite("Callback timing in the summary")
struct CycleTimingTextTests {
    @Test("the longest cycle and the one with the most work are numbered from 1, each where it came")
    func worstCyclesAreNumbered() {
        let timing = CycleTiming()
        // 64 frames at 48 kHz: a 1.333 ms period. (wall ns, CPU ns) per cycle.
        let cycles = [
            (200_000, 150_000), (900_000, 100_000), (300_000, 250_000), (400_000, 600_000), (100_000, 50_000),
        ]
        for (wall, cpu) in cycles {
            timing.record(nanoseconds: wall, cpuNanoseconds: cpu, frames: 64, sampleRate: 48_000)
        }
        let figures = timing.figures()
        #expect(figures.cycles == 5)
        #expect(figures.worstCycle == 2, "0.9 ms on the wall clock, the second cycle")
        #expect(figures.worstWorkCycle == 4, "0.6 ms of CPU time, the fourth cycle")
        let status = DriverStatus(xruns: 0, cpuLoad: 0, cycle: figures, framesMissed: 0)
        let text = RecordingText.timing(status)
        #expect(text.contains("worst 67.5% of the period (0.90 ms, cycle 2)"), "\(text)")
        #expect(text.contains("most work 45.0% (cycle 4)"), "\(text)")
    }
}
