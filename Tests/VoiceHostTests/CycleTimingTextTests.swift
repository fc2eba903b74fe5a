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

    @Test("the summary gives p99 and p99.9 of the cycles, on the wall clock and in CPU time")
    func percentilesInTheSummary() {
        let timing = CycleTiming()
        // 48 frames at 48 kHz: a 1 ms period, so 100,000 ns is 10 % of it. 990 cycles at 10 %,
        // 9 at 30 %, 1 at 90 % (its CPU time 5 %, 20 %, 60 %).
        let cycles =
            Array(repeating: (100_000, 50_000), count: 990) + Array(repeating: (300_000, 200_000), count: 9)
            + [(900_000, 600_000)]
        for (wall, cpu) in cycles {
            timing.record(nanoseconds: wall, cpuNanoseconds: cpu, frames: 48, sampleRate: 48_000)
        }
        let p = timing.figures().percentiles
        // Each is its 0.1 % bucket's upper edge: the 990th cycle is at 10 %, the 999th at 30 %.
        #expect(p == CycleFigures.Percentiles(p99: 10.1, p999: 30.1, workP99: 5.1, workP999: 20.1))
        #expect(timing.figures().worstPercentOfPeriod == 90)
        let text = RecordingText.timing(DriverStatus(xruns: 0, cpuLoad: 0, cycle: timing.figures(), framesMissed: 0))
        #expect(text.contains("p99 10.1%, p99.9 30.1% (work p99 5.1%, p99.9 20.1%)"), "\(text)")
    }

    @Test("a cycle of twice the period or more counts at 200 %, and none gives 0")
    func percentileBounds() {
        let timing = CycleTiming()
        #expect(timing.figures().percentiles?.p99 == 0)
        for _ in 0..<10 { timing.record(nanoseconds: 5_000_000, cpuNanoseconds: 0, frames: 48, sampleRate: 48_000) }
        #expect(timing.figures().percentiles?.p999 == 200)
        #expect(timing.figures().percentiles?.workP999 == 0.1)
    }
}
