import Foundation
import Testing
import VoiceTestSupport

/// `run --record`: its help line says what SIGKILL costs a take (Ogg Vorbis the most), and an unknown
/// placeholder is refused before any server is needed.
@Suite("voicerack run: --record's help and placeholders")
struct RunRecordHelpTests {
    @Test("run's --record line says what SIGKILL costs a take, the Ogg Vorbis loss included")
    func helpMentionsVorbisLoss() throws {
        let help = try CommandRunner.voicerack(["run", "--help"], environment: ["COLUMNS": "80"]).standardOutput
        // The option is one line, and the cost is on it (the manual has the figures per format).
        let record = help.split(separator: "\n").filter { $0.hasPrefix("  --record <[tap=]file>") }
        #expect(record.count == 1, "\(help)")
        #expect(record.first?.contains("SIGKILL loses <0.2 s (Vorbis 2 s)") == true, "\(record)")
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
