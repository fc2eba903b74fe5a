import Foundation
import VoiceCycle
import VoiceRT

/// The status line on a terminal: level bars with peak hold and plain words
/// (`REC 00:12:31  mic [###  | ] -18  voice [##   | ] -24  far [     |]-99  echo -42 dB  delay 90 ms  CPU 3%`),
/// fitted to the terminal's width by dropping the least important parts first, so it never
/// wraps. Log files keep `StatusText.line`, with every number.
///
/// - Realtime: never; main thread.
struct TerminalStatus {
    private var mic = LevelBar(label: "mic")
    private var far = LevelBar(label: "far")
    private var voice = LevelBar(label: "voice")
    /// voice_out's short-term loudness (`-16.2 LUFS`), shown after its bar; nil without a meter.
    var loudness: String?

    /// One part of the line: its text, its place in the line and how much it matters (0 first).
    struct Part: Equatable {
        let text: String
        let order: Int
        let priority: Int
    }

    /// What a recording shows: when it started (seconds, the clock `line` is given), the files
    /// that failed and the frames lost.
    struct Recording {
        var started: Double
        var failed = 0
        var lost = 0
    }

    /// The line for `width` columns at `time` (seconds; the same clock as `recording.started`).
    mutating func line(
        _ s: CycleStatus, _ d: DriverStatus, recording: Recording?, time: Double, width: Int
    ) -> String {
        Self.fit(parts(s, d, recording: recording, time: time), width: width)
    }

    /// Every part the line could show, in no particular order.
    mutating func parts(_ s: CycleStatus, _ d: DriverStatus, recording: Recording?, time: Double) -> [Part] {
        let h = s.health
        var parts = [
            Part(text: mic.update(h.micLevel, at: time), order: 1, priority: 0),
            Part(text: voice.update(h.outputLevel, at: time), order: 2, priority: 3),
            Part(text: far.update(h.farLevel, at: time), order: 3, priority: 4),
            Part(text: String(format: "CPU %.0f%%", d.cpuLoad), order: 8, priority: 8),
        ]
        if let loudness { parts.append(Part(text: loudness, order: 2, priority: 3)) }
        if let recording {
            var text = "REC " + Self.clock(time - recording.started)
            if recording.failed > 0 { text += " (\(recording.failed) failed)" }
            if recording.lost > 0 { text += " lost \(recording.lost)" }
            parts.append(Part(text: text, order: 0, priority: 1))
        }
        if h.echoReturnLossEnhancement > 0 {
            let erle = Decibels.fromPower(Double(h.echoReturnLossEnhancement))
            parts.append(Part(text: String(format: "echo -%.0f dB", max(0, erle)), order: 4, priority: 6))
        }
        if h.estimatedDelay >= 0 {
            let milliseconds = Double(h.estimatedDelay) * 1000 / Double(s.sampleRate)
            parts.append(Part(text: String(format: "delay %.0f ms", milliseconds), order: 5, priority: 7))
        }
        if h.voiceActive { parts.append(Part(text: "talking", order: 6, priority: 9)) }
        if d.xruns > 0 { parts.append(Part(text: "xruns \(d.xruns)", order: 7, priority: 5)) }
        if h.monitorMuted { parts.append(Part(text: "MONITOR MUTED", order: 9, priority: 1)) }
        if s.silentCycles > 0 { parts.append(Part(text: "silent cycles \(s.silentCycles)", order: 10, priority: 5)) }
        if let problem = s.problem { parts.append(Part(text: "problem: \(problem)", order: 11, priority: 2)) }
        return parts
    }

    /// The parts that fit in `width - 1` columns (the last column is left free: writing into it
    /// makes some terminals wrap), taken by priority, shown in their order, two spaces apart. The
    /// most important part is always shown: cut when it alone is wider than that.
    static func fit(_ parts: [Part], width: Int) -> String {
        let room = max(1, width - 1)
        let ranked = parts.sorted(by: { ($0.priority, $0.order) < ($1.priority, $1.order) })
        if let first = ranked.first, first.text.count > room { return String(first.text.prefix(room)) }
        var chosen: [Part] = []
        var used = 0
        for part in ranked {
            let cost = part.text.count + (chosen.isEmpty ? 0 : 2)
            if used + cost <= room {
                chosen.append(part)
                used += cost
            }
        }
        return chosen.sorted { $0.order < $1.order }.map(\.text).joined(separator: "  ")
    }

    /// `seconds` as `HH:MM:SS`.
    static func clock(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        return String(format: "%02d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }
}
