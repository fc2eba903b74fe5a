import Foundation
import VoiceCycle
import VoiceRecorder

/// Lines about recordings and callback timing for the live client's log and exit summary.
///
/// - Realtime: never; main thread.
enum RecordingText {
    /// What one finished recording wrote: files, format, frames, duration, lost and padded
    /// frames, and the error that stopped it early, if any.
    static func summary(_ tap: Tap, _ recording: Recording, _ result: RecordingResult) -> String {
        let spec = recording.spec
        let s = result.status
        let seconds = Double(s.framesWritten) / Double(spec.sampleRate)
        if let problem = result.fileProblem {
            return "NOT recorded \(tap.rawValue): \(problem) ("
                + String(format: "%.2f s", seconds) + " written into it)"
        }
        var line =
            "recorded \(tap.rawValue) to \(result.files.joined(separator: ", ")) (\(spec.format), \(spec.channels) ch): "
            + "\(s.framesWritten) frames, " + String(format: "%.2f s", seconds)
            + ", lost \(s.framesLost)"
            + (s.framesLost > 0 ? " (disk \(s.framesLost - s.framesNotRun), not run \(s.framesNotRun))" : "")
            + ", padded \(s.framesPadded)"
        if let error = result.error { line += "; stopped early: \(error.message)" }
        if let moved = result.fileMoved { line += "; \(moved)" }
        return line
    }

    /// The process callback's timing, e.g. `callback: 3750 cycles, 0 over the period (0 by its
    /// own work), worst 41.2% of the period (0.55 ms, cycle 3), most work 18.0% (cycle 3), p99
    /// 12.3%, p99.9 20.1% (work p99 11.0%, p99.9 17.5%), xruns 0`: the cycle numbers tell a
    /// warm-up cost (the first cycles) from a later one; the percentiles, how the cycles as a
    /// whole held up (a single worst cycle says mostly what else ran then).
    /// `recorded`: something was recording, so frames not run were padded with silence there.
    static func timing(_ d: DriverStatus, recorded: Bool = false) -> String {
        let c = d.cycle
        return "callback: \(c.cycles) cycles, \(c.overruns) over the period (\(c.workOverruns) by its own work), worst "
            + String(
                format: "%.1f%% of the period (%.2f ms, cycle %ld)", c.worstPercentOfPeriod, c.worstMilliseconds,
                c.worstCycle)
            + String(format: ", most work %.1f%% (cycle %ld)", c.worstWorkPercentOfPeriod, c.worstWorkCycle)
            + (c.percentiles.map {
                String(
                    format: ", p99 %.1f%%, p99.9 %.1f%% (work p99 %.1f%%, p99.9 %.1f%%)", $0.p99, $0.p999, $0.workP99,
                    $0.workP999)
            } ?? "")
            + ", xruns \(d.xruns)"
            + (d.framesMissed > 0 ? ", " + framesNotRun(d, recorded: recorded) : "")
    }

    /// `2496 frames not run (padded with silence; 1472 of them at 4 buffer-size
    /// changes, where the server ran no process callback before voicerack had taken the new
    /// size, as PipeWire's JACK does)`; "padded" only when something was `recorded`.
    static func framesNotRun(_ d: DriverStatus, recorded: Bool) -> String {
        var notes: [String] = recorded ? ["padded with silence"] : []
        if d.framesMissedAtSizeChange > 0 {
            let all = d.framesMissedAtSizeChange == d.framesMissed ? "all" : "\(d.framesMissedAtSizeChange)"
            let changes = d.sizeChangesWithFramesMissed
            notes.append(
                "\(all) of them at \(changes) buffer-size change\(changes == 1 ? "" : "s"), where the server ran no process callback before voicerack had taken the new size, as PipeWire's JACK does"
            )
        }
        return "\(d.framesMissed) frames not run" + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")
    }
}
