import Foundation
import Testing
import VoiceTestSupport

/// `run --record`: its help says what SIGKILL costs an Ogg Vorbis take, and an unknown
/// placeholder is refused before any server is needed.
@Suite("voicerack run: --record's help and placeholders")
struct RunRecordHelpTests {
    @Test("--record's help mentions the Ogg Vorbis loss on SIGKILL")
    func helpMentionsVorbisLoss() throws {
        let help = try CommandRunner.voicerack(["run", "--help"]).standardOutput
        // The option's own help, however it is wrapped.
        let option = help.components(separatedBy: "--record <spec>").dropFirst().first ?? ""
        let words = option.split(whereSeparator: \.isWhitespace).prefix(80).joined(separator: " ")
        #expect(words.contains("a SIGKILL loses up to about 2 s of Ogg Vorbis"), "\(words)")
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
