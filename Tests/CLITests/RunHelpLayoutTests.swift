import Foundation
import Testing
import VoiceTestSupport

/// `run --help` reads options first: every option on one line, then the examples, then the
/// details (the prose swift-argument-parser would otherwise print before the usage).
@Suite("voicerack run --help: options first, one line each")
struct RunHelpLayoutTests {
    /// The help at 80 columns, as a pipe or a CI log shows it.
    private func help(_ arguments: [String]) throws -> String {
        let r = try CommandRunner.voicerack(arguments, environment: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(r.standardError)")
        return r.standardOutput
    }

    @Test("sections come in order: usage, options, streaming, PipeWire, examples, details")
    func sectionOrder() throws {
        let text = try help(["run", "--help"])
        let titles = text.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.hasSuffix(":") }
        #expect(titles == ["OPTIONS:", "STREAMING:", "PIPEWIRE DESKTOP:", "EXAMPLES:", "DETAILS:"], "\(titles)")
        #expect(text.hasPrefix("OVERVIEW: Run as a JACK client until SIGINT/SIGTERM.\n\nUSAGE: voicerack run"))
    }

    @Test("-h and `help run` give the same layout as --help")
    func otherSpellings() throws {
        let long = try help(["run", "--help"])
        #expect(try help(["run", "-h"]) == long)
        #expect(try help(["help", "run"]) == long)
    }

    @Test("each option's help is one line of at most 80 columns")
    func oneLineEach() throws {
        let text = try help(["run", "--help"])
        let sections = text.components(separatedBy: "\nEXAMPLES:")[0].components(separatedBy: "\nOPTIONS:\n")
        try #require(sections.count == 2)
        let column = String(repeating: " ", count: 26)
        var entries: [(label: Substring, helpLines: Int)] = []
        for line in sections[1].split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
            if line.hasPrefix("  -") {
                // Help starts at column 26; a label too long for its column stands alone and its
                // help is then the next line.
                let characters = Array(line)
                entries.append((line, characters.count > 26 && characters[25] == " " ? 1 : 0))
            } else if line.hasPrefix(column), !entries.isEmpty {
                entries[entries.count - 1].helpLines += 1
            }
        }
        for entry in entries { #expect(entry.helpLines == 1, "\(entry.label)") }
        // run's own 21 (with --version and --help), 7 streaming, 4 PipeWire: at least these.
        #expect(entries.count >= 32, "\(entries.count) options")
    }

    @Test("the details keep what the options leave out, SIGUSR2 and the Vorbis loss among them")
    func detailsAfterOptions() throws {
        let text = try help(["run", "--help"])
        let details = text.components(separatedBy: "\nDETAILS:\n").last ?? ""
        let words = details.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--wait-for-server waits for the JACK server instead of exiting 69"))
        #expect(words.contains("Ogg Vorbis up to about 2 s"))
        #expect(words.contains("SIGUSR2 pauses or resumes the track"))
        #expect(words.contains("/voicerack/meters/register"))
    }
}
