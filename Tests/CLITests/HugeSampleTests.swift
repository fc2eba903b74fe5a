import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Found by the audio-header fuzzer: a float file whose samples are huge but finite (3e38)
/// overflows the mic's conditioning to ±inf and then NaN, and `SampleConversion.toInt16`
/// (VoiceEngine) traps converting NaN to Int16: SIGILL. The live path can get the same samples
/// from any JACK client. The fix belongs in VoiceEngine (not this branch's to edit): treat NaN
/// in toInt16 as 0, and clamp finite inputs in the NaN guard. Until then this is a known issue;
/// once fixed, `withKnownIssue` fails and this wrapper must go.
@Suite("voicerack process: huge finite samples")
struct HugeSampleTests {
    @Test("a float mic of 3e38 samples ends cleanly")
    func hugeFiniteSamples() throws {
        let folder = try TemporaryFolder()
        let mic = try TestFiles.wav(
            folder.file("huge.wav"), [[Float](repeating: 3e38, count: 8_000) + [Float](repeating: 0.1, count: 8_000)],
            rate: 16_000)
        let ref = try TestFiles.wav(folder.file("ref.wav"), [[Float](repeating: 0.1, count: 16_000)], rate: 16_000)
        let r = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("o.wav"), "-q",
        ])
        withKnownIssue("VoiceEngine SampleConversion.toInt16 traps on NaN made from huge input (SIGILL)") {
            #expect(!r.signaled && (r.status == 0 || r.status == 65), "\(r.status): \(r.standardError.prefix(300))")
        }
    }
}
