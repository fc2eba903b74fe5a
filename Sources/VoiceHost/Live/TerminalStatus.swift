import Foundation
import VoiceControl
import VoiceCycle
import VoiceRT
import VoiceStream

/// The status line on a terminal: level bars with peak hold and plain words
/// (`REC 00:12:31  mic [###  | ] -18  voice [##   | ] -24  far [     |]-99  echo -42 dB good  delay 90 ms  CPU 3%`),
/// fitted to the terminal's width by dropping the least important parts first, so it never
/// wraps. Log files keep `StatusText.line`, with every number.
///
/// - Realtime: never; main thread.
struct TerminalStatus {
    private var mic = LevelBar(label: "mic")
    private var far = LevelBar(label: "far")
    private var voice = LevelBar(label: "voice")
    /// voice_out's short-term loudness (`-16.2 LUFS`), shown before the CPU figure; nil without a meter.
    var loudness: String?

    /// One part of the line: its text, its place in the line and how much it matters (0 first).
    struct Part: Equatable {
        let text: String
        let order: Int
        let priority: Int
    }

    /// The line for `width` columns at `time` (seconds on the clock the snapshot's `time` uses):
    /// the figures from `snapshot` (described once in `LiveFigure`), the silent cycles and the
    /// problem from `s`, the stream's state from `stream`.
    mutating func line(
        _ snapshot: LiveSnapshot, _ s: CycleStatus, stream: StreamStatus?, time: Double, width: Int
    ) -> String {
        Self.fit(parts(snapshot, s, stream: stream, time: time), width: width)
    }

    /// Every part the line could show, in no particular order. The echo figure with its verdict
    /// ranks first: it is the one that says the rack works, so it is the last to go.
    mutating func parts(_ snapshot: LiveSnapshot, _ s: CycleStatus, stream: StreamStatus?, time: Double) -> [Part] {
        var parts = [
            Part(text: mic.update(dBFS: snapshot.mic.level, at: time), order: 1, priority: 1),
            Part(text: voice.update(dBFS: snapshot.voice.level, at: time), order: 2, priority: 4),
            Part(text: far.update(dBFS: snapshot.far.level, at: time), order: 3, priority: 5),
            Part(
                text: "CPU " + LiveFigure.dsp.text(snapshot).replacingOccurrences(of: " ", with: ""), order: 9,
                priority: 8),
        ]
        if let recording = snapshot.recording {
            parts.append(Part(text: Self.recording(recording), order: 0, priority: 2))
        }
        if let loudness { parts.append(Part(text: loudness, order: 8, priority: 3)) }
        if let stream { parts.append(Part(text: Self.onAir(stream), order: 0, priority: 2)) }
        if snapshot.echoRemovalDB != nil {
            parts.append(Part(text: Self.echo(snapshot), order: 4, priority: 0))
        } else if snapshot.farActive {
            parts.append(Part(text: "echo " + EchoVerdict.waiting(farActive: true), order: 4, priority: 7))
        }
        if snapshot.delayMilliseconds != nil {
            parts.append(Part(text: "delay " + LiveFigure.delay.text(snapshot), order: 5, priority: 7))
        }
        if snapshot.voiceActive { parts.append(Part(text: "talking", order: 6, priority: 9)) }
        if snapshot.xruns > 0 { parts.append(Part(text: "xruns \(snapshot.xruns)", order: 7, priority: 6)) }
        if snapshot.monitorMuted { parts.append(Part(text: "MONITOR MUTED", order: 10, priority: 2)) }
        if s.silentCycles > 0 { parts.append(Part(text: "silent cycles \(s.silentCycles)", order: 11, priority: 6)) }
        if let problem = s.problem { parts.append(Part(text: "problem: \(problem)", order: 12, priority: 3)) }
        return parts
    }

    /// `echo -42 dB good`: the echo removed, as a level below the mic's echo, and its verdict.
    static func echo(_ snapshot: LiveSnapshot) -> String {
        guard let db = LiveFigure.echo.value(snapshot) else { return "echo --" }
        return String(format: "echo -%.0f dB ", db) + EchoVerdict(removedDB: db).rawValue
    }

    /// `REC 00:12:31`, then what was lost, told apart: `disk lost N` (frames the disk did not
    /// take in time) and `not run N` (frames no cycle ran for: xruns), and failed files.
    static func recording(_ r: LiveSnapshot.Recording) -> String {
        var text = "REC " + clock(r.seconds)
        if r.failedFiles > 0 { text += " (\(r.failedFiles) failed)" }
        let disk = r.framesLost - r.framesNotRun
        if disk > 0 { text += " disk lost \(disk)" }
        if r.framesNotRun > 0 { text += " not run \(r.framesNotRun)" }
        return text
    }

    /// `ON AIR 00:01:02`, `RECONNECTING (2)`, `stream connecting`, `stream stopped`.
    static func onAir(_ stream: StreamStatus) -> String {
        switch stream.state {
        case .live: "ON AIR " + clock(stream.secondsOnAir)
        case .reconnecting(let attempt, _, _): "RECONNECTING (\(attempt))"
        case .connecting: "stream connecting"
        case .stopped: "stream stopped"
        }
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
