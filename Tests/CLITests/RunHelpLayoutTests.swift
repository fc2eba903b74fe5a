import Foundation
import Testing
import VoiceTestSupport

/// `run --help` reads options first: every option on one line of at most 80 columns, then the
/// signals and ports in the same layout, a pointer to the manual, and the examples last; the
/// prose lives in docs/manual.md, which documents every option the help lists.
@Suite("voicerack run --help: options first, one line each, examples last")
struct RunHelpLayoutTests {
    /// The help at 80 columns, as a pipe or a CI log shows it.
    private func help(_ arguments: [String], columns: Int = 80) throws -> String {
        let r = try CommandRunner.voicerack(arguments, environment: ["COLUMNS": "\(columns)"])
        #expect(r.status == 0, "\(r.standardError)")
        return r.standardOutput
    }

    /// The lines of section `title` (without the title), up to the next blank line.
    private func section(_ title: String, of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The repository's docs/manual.md, from this file's place in Tests/CLITests.
    private var manual: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("docs/manual.md"), encoding: .utf8)
        }
    }

    @Test("sections come in order: usage, options, streaming, PipeWire, signals, ports, more, examples last")
    func sectionOrder() throws {
        let text = try help(["run", "--help"])
        let titles = text.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.hasSuffix(":") }
        #expect(
            titles == ["OPTIONS:", "STREAMING:", "PIPEWIRE DESKTOP:", "SIGNALS:", "PORTS:", "MORE:", "EXAMPLES:"],
            "\(titles)")
        #expect(text.hasPrefix("OVERVIEW: Run as a JACK client until SIGINT/SIGTERM.\n\nUSAGE: voicerack run"))
        // The examples end the help: after their title, only command lines.
        let examples = text.components(separatedBy: "\nEXAMPLES:\n").last ?? ""
        let commands = examples.split(separator: "\n")
        #expect(commands.count >= 8)
        for line in commands {
            #expect(
                line.hasPrefix("  voicerack run ") || line.hasPrefix("  pw-jack voicerack run")
                    || line.hasPrefix("  kill "), "\(line)")
        }
    }

    @Test("-h and `help run` give the same layout as --help")
    func otherSpellings() throws {
        let long = try help(["run", "--help"])
        #expect(try help(["run", "-h"]) == long)
        #expect(try help(["help", "run"]) == long)
    }

    @Test("each option is one line of at most 80 columns, label and help together")
    func oneLineEach() throws {
        let text = try help(["run", "--help"])
        for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line.count): \(line)") }
        var options: [Substring] = []
        for title in ["OPTIONS:", "STREAMING:", "PIPEWIRE DESKTOP:"] {
            let lines = section(title, of: text)
            #expect(!lines.isEmpty, "no \(title)")
            for line in lines {
                // No wrapped help and no label alone: each line is an option with its help.
                #expect(line.hasPrefix("  -"), "not an option line under \(title): \(line)")
                #expect(line.count > 26 && line.dropFirst(2).contains(" "), "no help beside \(line)")
            }
            options += lines
        }
        // run's own 24 (with --version, --help, --no-loudness-meter and --deepfilter-dir), 7
        // streaming, 4 PipeWire.
        #expect(options.count == 35, "\(options.count) options")
        // The long labels (--osc-secret-file, --backing-follows-transport, --stream-password-*)
        // share their line with their help too.
        for label in ["--osc-secret-file <file>", "--backing-follows-transport", "--stream-password-file <path>"] {
            #expect(options.contains { $0.hasPrefix("  \(label)  ") && $0.count > label.count + 12 }, "\(label)")
        }
    }

    @Test("the whole help stays under 90 lines; the signals, ports and examples one line each within 62 columns")
    func bounded() throws {
        let text = try help(["run", "--help"])
        let count = text.split(separator: "\n", omittingEmptySubsequences: false).count
        print("run --help at 80 columns: \(count) lines")
        #expect(count <= 90, "\(count) lines")
        let signals = section("SIGNALS:", of: text)
        #expect(
            signals.map { $0.split(separator: " ").first ?? "" } == [
                "SIGINT,", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGRTMIN+1",
            ])
        #expect(signals.contains { $0.hasPrefix("  SIGUSR2") && $0.contains("Pause or resume the backing track") })
        let ports = section("PORTS:", of: text).map { $0.split(separator: " ").first ?? "" }
        #expect(ports == ["mic_in", "far_in_L,", "voice_out", "speaker_out_L/R", "monitor_out_L/R"], "\(ports)")
        // Within 62 columns: the man page's indented description (64 at MANWIDTH=80) shows them unwrapped too.
        for line in signals + section("PORTS:", of: text) + section("EXAMPLES:", of: text) {
            #expect(line.count <= 62, "\(line.count): \(line)")
        }
    }

    @Test("what users must see stays on the option's own line: a SIGKILL's cost, exit 69")
    func safetyOnTheOptionLine() throws {
        let text = try help(["run", "--help"])
        let lines = text.split(separator: "\n")
        let record = lines.first { $0.hasPrefix("  --record <") }
        #expect(record?.contains("SIGKILL loses <0.2 s (Vorbis 2 s)") == true, "\(record ?? "")")
        let wait = lines.first { $0.hasPrefix("  --wait-for-server") }
        #expect(wait?.contains("instead of exiting 69") == true, "\(wait ?? "")")
        let more = section("MORE:", of: text).joined(separator: " ")
        #expect(more.contains("docs/manual.md") && more.contains("man voicerack"), "\(more)")
    }

    @Test("the manual documents every option the help lists, and the details the help left out")
    func manualHasTheDetails() throws {
        let text = try help(["run", "--help"])
        let manual = try manual
        let options = Set(text.matches(of: /\n  (--[a-z-]+)/).map { String($0.1) })
        #expect(options.count == 34, "\(options.sorted())")
        for option in options.subtracting(["--help", "--version"]) {
            #expect(manual.contains("`\(option)"), "docs/manual.md does not mention \(option)")
        }
        let words = manual.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for detail in [
            "up to about 2 s of Ogg Vorbis", "With `--wait-for-server` it waits instead",
            "SIGUSR2 pauses or resumes it", "`/voicerack/meters/register`", "`--osc 0` picks a free port",
            "the file's first line (8 to 256 bytes)", "`--format CONTAINER[:ENCODING]`", "`--make-default` also makes",
        ] {
            #expect(words.contains(detail), "docs/manual.md lacks: \(detail)")
        }
    }
}
