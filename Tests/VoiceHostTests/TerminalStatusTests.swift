import Testing
import VoiceControl
import VoiceRT

@testable import VoiceCycle
@testable import VoiceHost
@testable import VoiceStream

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

    /// A call in progress: levels, echo removed, delay, xruns, load, a recording that lost
    /// frames to xruns and to the disk, a live stream.
    static func call(echoDB: Double?) -> LiveSnapshot {
        var s = LiveSnapshot()
        s.mic = .init(level: -18, peak: -12)
        s.voice = .init(level: -24, peak: -20)
        s.far = .init(level: -30, peak: -25)
        s.echoRemovalDB = echoDB
        s.farActive = true
        s.delayMilliseconds = 90
        s.voiceActive = true
        s.xruns = 2
        s.dspLoadPercent = 3.2
        s.recording = .init(seconds: 751, files: ["v.wav"], failedFiles: 0, framesLost: 1_000, framesNotRun: 256)
        return s
    }

    static let cycle = CycleStatus(
        health: HealthFigures(), sampleRate: 48_000, blockSize: 256, latency: 256, silentCycles: 0, problem: nil,
        voiceMuted: false, talkingWhileMuted: false, mutedTalkEvents: 0)

    @Test("the echo verdict is the last part dropped; lost frames are told apart; on air shows")
    func echoVerdictLastDropped() {
        var terminal = TerminalStatus()
        var live = StreamStatus()
        live.state = .live
        live.secondsOnAir = 62
        let snapshot = Self.call(echoDB: 41.6)
        let wide = terminal.line(snapshot, Self.cycle, stream: live, time: 0, width: 300)
        #expect(
            wide
                == "REC 00:12:31 disk lost 744 not run 256  ON AIR 00:01:02  mic [####  ] -18  voice [####  ] -24  far [###   ] -30  echo -42 dB good  delay 90 ms  talking  xruns 2  CPU 3%",
            "\(wide)")
        for width in [80, 60, 40, 20, 17] {
            let line = terminal.line(snapshot, Self.cycle, stream: live, time: 0, width: width)
            #expect(line.contains("echo -42 dB good"), "width \(width): \(line)")
            #expect(line.count <= width - 1, "width \(width): \(line)")
        }
        // At 80 columns the verdict, the mic and the recording stay; without the long loss
        // counts the stream's state fits too.
        let eighty = terminal.line(snapshot, Self.cycle, stream: live, time: 0, width: 80)
        #expect(eighty == "REC 00:12:31 disk lost 744 not run 256  mic [####  ] -18  echo -42 dB good", "\(eighty)")
        var clean = snapshot
        clean.recording?.framesLost = 0
        clean.recording?.framesNotRun = 0
        let onAir = terminal.line(clean, Self.cycle, stream: live, time: 0, width: 80)
        #expect(onAir == "REC 00:12:31  ON AIR 00:01:02  mic [####  ] -18  echo -42 dB good  xruns 2", "\(onAir)")
        // The verdict follows the one rule: fair from 20 dB, poor below.
        let fair = terminal.line(Self.call(echoDB: 24), Self.cycle, stream: nil, time: 0, width: 300)
        #expect(fair.contains("echo -24 dB fair"), "\(fair)")
        let poor = terminal.line(Self.call(echoDB: 12), Self.cycle, stream: nil, time: 0, width: 300)
        #expect(poor.contains("echo -12 dB poor"), "\(poor)")
        // Not measured yet while the far end plays: said, but of low rank.
        let measuring = terminal.line(Self.call(echoDB: nil), Self.cycle, stream: nil, time: 0, width: 300)
        #expect(measuring.contains("echo measuring"), "\(measuring)")
        var reconnecting = StreamStatus()
        reconnecting.state = .reconnecting(attempt: 3, retryIn: 2, reason: "refused")
        #expect(TerminalStatus.onAir(reconnecting) == "RECONNECTING (3)")
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
