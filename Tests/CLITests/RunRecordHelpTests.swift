import Foundation
import Testing
import VoiceTestSupport

/// `run --record`: the help says what SIGKILL costs an Ogg Vorbis take, and an unknown
/// placeholder is refused before any server is needed.
@Suite("voicerack run: --record's help and placeholders")
struct RunRecordHelpTests {
    @Test("run's help mentions the Ogg Vorbis loss on SIGKILL")
    func helpMentionsVorbisLoss() throws {
        let help = try CommandRunner.voicerack(["run", "--help"]).standardOutput
        // The option is one line; the details after the options say what a crash costs,
        // however they are wrapped.
        let details = help.components(separatedBy: "DETAILS:").dropFirst().first ?? ""
        let words = details.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            words.contains("After a crash or SIGKILL a take stays readable")
                && words.contains("Ogg Vorbis up to about 2 s"), "\(words)")
    }

    @Test("--record take-{foo}.wav exits 64 naming the known placeholders")
    func unknownPlaceholder() throws {
        let r = try CommandRunner.voicerack([
            "run", "--preset", "raw", "--no-auto-connect", "--server", "voicerack-none-\(getpid())", "--record",
            "take-{foo}.wav",
        ])
        #expect(r.status == 64, "\(r.standardError)")
        #expect(
            r.standardError.contains(
                "--record take-{foo}.wav: {foo} is not a placeholder; use {date}, {time}, {ms}, {n}, {client}, {tap}"),
            "\(r.standardError)")
    }
}
