import ArgumentParser
import Foundation

/// `voicerack run --help` laid out for a reader: the options first, one line each, then the
/// signals and ports, a pointer to the manual, and the examples last.
///
/// swift-argument-parser prints a command's discussion before its usage and its titled option
/// groups before the untitled ones; `Voicerack.main` prints `run`'s help in this order instead.
/// The prose behind each option lives in the manual (docs/manual.md), not here. The discussion
/// stays `Run`'s, so the man page (generated from the same declarations) keeps the signals,
/// ports and examples in its description.
///
/// - Realtime: never; main thread.
enum RunHelp {
    /// `Run`'s discussion: the signals and ports in the options' layout, where the rest is
    /// explained, then the examples. The table lines stay within 62 columns, so the man page's
    /// indented description does not wrap them either.
    static let discussion = """
        SIGNALS:
          SIGINT, SIGTERM         Finalise the recordings; exit 0.
          SIGHUP                  Re-read the preset, apply it live.
          SIGUSR1                 Start or stop recording.
          SIGUSR2                 Pause or resume the backing track.
          SIGRTMIN+1              Start or stop the stream.

        PORTS:
          mic_in                  The microphone.
          far_in_L, far_in_R      The far end: the echo reference.
          voice_out               The clean voice, for the call.
          speaker_out_L/R         The far end for the speakers.
          monitor_out_L/R         The ear return, for headphones.

        MORE:
        Each option in detail, --control's commands, the OSC addresses, the web panel, \
        NSM sessions and streaming: the manual, docs/manual.md. Exit codes, files and \
        environment: voicerack --help, man voicerack.

        EXAMPLES:
          voicerack run --preset echo-cancel
          voicerack run --preset podcast --record 'take-{date}.flac'
          voicerack run --record v.wav --record tuning=t.wav --control
          voicerack run --preset echo-cancel --osc 9000 --web 8080
          voicerack run --preset karaoke --backing song.flac
          voicerack run --record-on-freewheel --record render.wav
          voicerack run --stream icecast://source@host:8000/live.ogg
          pw-jack voicerack run --pipewire
          kill -USR1 $(pidof voicerack)    # start or stop recording
        """

    /// `run`'s help laid out options first, when `arguments` (without the program's name) ask
    /// for it; nil for anything else, which `main` then handles as usual.
    static func requested(by arguments: [String]) -> String? {
        // Anything else is parsed once, by `main`, as it always was.
        let helpWords: Set = ["-h", "--help", "--help-hidden", "-help", "help"]
        guard arguments.contains(where: helpWords.contains) else { return nil }
        do {
            // swift-argument-parser answers --help, -h and `help` with a command of its own, whose
            // run throws the help request; any other command is returned here without running.
            var command = try Voicerack.parseAsRoot(arguments)
            guard String(describing: type(of: command)) == "HelpCommand" else { return nil }
            try command.run()
            return nil
        } catch {
            guard Voicerack.fullMessage(for: error) == Voicerack.helpMessage(for: Run.self) else { return nil }
            // At most 80 columns, as a man page: one option a line, the prose in the manual.
            let width = min(screenWidth, 80)
            return laidOut(Voicerack.helpMessage(for: Run.self, columns: width), width: width)
        }
    }

    /// The generated help reordered: the overview, the usage, the untitled OPTIONS, the titled
    /// groups in their order, then the discussion (signals, ports, examples); an option whose
    /// label is too long for its column shares its line with its help where `width` allows.
    static func laidOut(_ generated: String, width: Int) -> String {
        let halves = generated.components(separatedBy: "\nUSAGE: ")
        guard halves.count == 2 else { return generated }
        let head = halves[0].components(separatedBy: "\n\n")
        let blocks = ("USAGE: " + halves[1]).trimmingTrailingNewlines.components(separatedBy: "\n\n")
        let options = blocks.filter { $0.hasPrefix("OPTIONS:") }
        let groups = blocks.dropFirst().filter { !$0.hasPrefix("OPTIONS:") }
        let parts = [head[0], blocks[0]] + (options + groups).map { joiningLongLabels($0, width: width) }
        return (parts + head.dropFirst()).joined(separator: "\n\n")
    }

    /// `block` with each label that stands alone (longer than the label column) joined to its
    /// one help line, two spaces apart, when the two fit in `width` columns. (The wrapped rest of
    /// a help that shares its label's line never fits: it was wrapped because it did not.)
    static func joiningLongLabels(_ block: String, width: Int) -> String {
        let helpColumn = String(repeating: " ", count: 26)
        var lines: [String] = []
        for line in block.components(separatedBy: "\n") {
            if line.hasPrefix(helpColumn), let label = lines.last, label.hasPrefix("  -"),
                label.count + 2 + line.count - helpColumn.count <= width
            {
                lines[lines.count - 1] = label + "  " + line.dropFirst(helpColumn.count)
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The width swift-argument-parser wraps help to: $COLUMNS, else the terminal's, else 80.
    static var screenWidth: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

extension String {
    /// The string without its trailing newlines.
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
