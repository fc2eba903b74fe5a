import Foundation
import VoiceControl
import VoiceCycle

extension LiveLoop {
    /// Runs one command from any surface (`--control` text, OSC, the web panel) and returns
    /// its reply: the session's own commands here (recording, backing track, status, help),
    /// the engine's in `LiveControl`.
    ///
    /// `origin` names the remote surface (OSC, web, NSM), nil for the terminal: a remote one
    /// reaches preset files only by name (`presetCommand`).
    ///
    /// - Realtime: never; main thread.
    func execute(_ command: LiveCommand, from origin: String? = nil) -> LiveReply {
        if let reply = presetCommand(command, from: origin) { return reply }
        let before = control.running
        if let reply = control.run(command) {
            if control.running != before { liveChanges += 1 }
            return reply
        }
        switch command {
        case .record(true):
            return recorder.isRecording ? .failure("already recording; stop first") : startRecording()
        case .recordTaps(let names):
            guard !recorder.isRecording else { return .failure("already recording; stop first") }
            return startRecording(taps: names)
        case .record(false):
            return recorder.isRecording ? LiveReply(lines: stopRecording()) : .failure("not recording")
        case .backing(let action):
            return BackingText.apply(action, to: backing)
        case .status:
            return LiveReply(lines: [StatusText.line(host.status(), driver.status(), recording: recorder.statusText)])
        case .help:
            return LiveReply(lines: LiveCommand.textHelp)
        default:
            return .failure("\(command) is not handled")
        }
    }

    /// Runs one `--control` line and logs its reply, the line's own text escaped
    /// (`ControlText`): a control character typed or piped in is shown, never obeyed.
    func runTextCommand(_ line: String) {
        out.commandTaken(line)
        // The terminal's own: ending the session is not a command other surfaces may send.
        let word = line.trimmingCharacters(in: .whitespaces)
        if word == "quit" || word == "exit" {
            quitRequested = word
            return
        }
        let reply: LiveReply
        switch LiveCommand.parse(line) {
        case nil: return
        case .failure(let failure)?: reply = .failure(failure.message)
        case .success(let command)?: reply = execute(command)
        }
        for text in reply.lines { out.log(ControlText.escaped(text)) }
    }

    /// Runs what surfaces submitted to the hub and answers each; logs their notes. A preset
    /// loaded or saved is logged at info with its file (in the reply's first line).
    func runSubmittedCommands() {
        for note in hub.takeNotes() { out.log(ControlText.escaped(note)) }
        for pending in hub.take() {
            let reply = execute(pending.command, from: pending.origin)
            let touchesFile: Bool
            switch pending.command {
            case .loadPreset, .savePreset: touchesFile = true
            default: touchesFile = false
            }
            out.log(
                ControlText.escaped("\(pending.origin): \(pending.command) -> \(reply.lines.first ?? "")"),
                level: reply.succeeded ? (touchesFile ? .info : .debug) : .notice)
            pending.reply(reply)
        }
    }

    /// Opens new recordings from the templates; says what was opened or why not.
    /// Opens new recordings from the templates, or of `taps` only (tap names); returns what to
    /// print.
    func startRecording(taps: [String]? = nil) -> LiveReply {
        do {
            let chosen = try taps.map { (names) throws(HostError) in try LiveRecordingOptions.taps(named: names) }
            let lines = try recorder.start(host, client: driver.clientName, taps: chosen)
            recordingStarted = ProcessInfo.processInfo.systemUptime
            return LiveReply(lines: lines)
        } catch {
            return .failure("cannot start recording: \(error.message)")
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
