import Testing
import VoiceRT

@testable import VoiceHost

@Suite("Terminal status line")
struct TerminalStatusTests {
    typealias Part = TerminalStatus.Part

    @Test("fits the width by dropping the least important parts, keeps their order, never reaches the last column")
    func fitsByPriority() {
        let parts = [
            Part(text: "REC 00:12:31", order: 0, priority: 1),
            Part(text: "mic [###  | ] -18", order: 1, priority: 0),
            Part(text: "voice [##    ] -24", order: 2, priority: 3),
            Part(text: "far [#     ] -40", order: 3, priority: 4),
            Part(text: "echo -42 dB", order: 4, priority: 6),
            Part(text: "delay 90 ms", order: 5, priority: 7),
            Part(text: "CPU 3%", order: 8, priority: 8),
        ]
        let wide = TerminalStatus.fit(parts, width: 200)
        #expect(wide == parts.map(\.text).joined(separator: "  "))
        let eighty = TerminalStatus.fit(parts, width: 80)
        // 12 + 17 + 18 + 16 + 11 + 4 gaps of 2 = 82 > 79: delay goes, then echo, CPU still fits.
        #expect(eighty == "REC 00:12:31  mic [###  | ] -18  voice [##    ] -24  far [#     ] -40  CPU 3%")
        for width in 1...200 {
            #expect(TerminalStatus.fit(parts, width: width).count <= max(1, width - 1), "width \(width)")
        }
        // A small part of low priority still fills room the bigger ones left.
        #expect(TerminalStatus.fit(parts, width: 40) == "REC 00:12:31  mic [###  | ] -18  CPU 3%")
        #expect(TerminalStatus.fit(parts, width: 38) == "REC 00:12:31  mic [###  | ] -18")
        // Narrower than the most important part: it is cut, never wrapped.
        #expect(TerminalStatus.fit(parts, width: 10) == "mic [### ")
    }

    @Test("level bars: filled to the level, the peak held 2 s, then falling 15 dB/s")
    func peakHold() {
        var bar = LevelBar(label: "mic")
        // 0 dBFS fills all 6 cells (10 dB each from -60).
        #expect(bar.update(1, at: 0) == "mic [######]   0")
        // Quieter at once: -30 dBFS fills 3 cells, the peak stays in the last cell.
        let half = Decibels.amplitude(-30)
        #expect(bar.update(half, at: 1) == "mic [###  |] -30")
        #expect(bar.update(half, at: 2) == "mic [###  |] -30")
        // 2 s held, then 15 dB/s: at 3 s the peak is at -15 dB (cell 5 of 6, rounded from 4.5).
        #expect(bar.update(half, at: 3) == "mic [### | ] -30")
        // At 4 s it has fallen to -30 and meets the level.
        #expect(bar.update(half, at: 4) == "mic [###   ] -30")
        // Silence: empty bar, -99.
        var quiet = LevelBar(label: "far")
        #expect(quiet.update(0, at: 0) == "far [      ] -99")
    }

    @Test("the recording clock")
    func clock() {
        #expect(TerminalStatus.clock(0) == "00:00:00")
        #expect(TerminalStatus.clock(12 * 60 + 31.9) == "00:12:31")
        #expect(TerminalStatus.clock(3 * 3600 + 5) == "03:00:05")
    }
}
