import Foundation
import VoiceCycle
import VoiceRecorder

extension LiveLoop {
    /// The `--control` commands that act on the session rather than the engine: `record`,
    /// `stop`, `pause`, `status`. Nil for every other line (the engine's commands, `LiveControl`).
    ///
    /// - Realtime: never; main thread.
    func sessionCommand(_ line: String) -> [String]? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let command = words.first, words.count == 1 else { return nil }
        switch command {
        case "record":
            return recorder.isRecording ? ["already recording; stop first"] : startRecording()
        case "stop":
            return recorder.isRecording ? stopRecording() : ["not recording"]
        case "pause":
            return [BackingText.toggle(backing).replacingOccurrences(of: "SIGUSR2: ", with: "")]
        case "status":
            return [StatusText.line(host.status(), driver.status(), recording: recorder.statusText)]
        default:
            return nil
        }
    }

    /// Opens new recordings from the templates (of `taps` only, when given); returns what to print.
    func startRecording(taps: [Tap]? = nil) -> [String] {
        do {
            let lines = try recorder.start(host, client: driver.clientName, taps: taps)
            recordingStarted = ProcessInfo.processInfo.systemUptime
            return lines
        } catch {
            return ["cannot start recording: \(error.message)"]
        }
    }

    /// Stops and finalises the running recordings; returns what was written.
    func stopRecording() -> [String] {
        recordingStarted = nil
        return recorder.stop(detachingFrom: host)
    }
}
