import Foundation
import VoiceCycle

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

    /// Opens new recordings from the templates; returns what to print.
    func startRecording() -> [String] {
        do {
            let lines = try recorder.start(host, client: driver.clientName)
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

    /// SIGRTMIN+1: starts the stream, or stops it (its end is sent); returns the log line.
    func toggleStream() -> String {
        let name = "\(StreamSignal.name): "
        guard let streaming else { return name + "no stream configured (--stream URL or stream.url in the preset)" }
        if streaming.isStreaming { return name + (streaming.stop(host, recorder: recorder) ?? "not streaming") }
        do { return name + (try streaming.start(host, recorder: recorder)) } catch {
            return name + "stream: \(error.message)"
        }
    }
}
