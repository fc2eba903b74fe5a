import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Found by the audio-header fuzzer: a float file whose samples are huge but finite (3e38)
/// overflowed the mic's conditioning to ±inf and then NaN, and `SampleConversion.toInt16`
/// (VoiceEngine) trapped converting NaN to Int16: SIGILL. The live path could get the same
/// samples from any JACK client. Fixed: the input guard holds finite samples to +18 dBFS, and
/// toInt16 takes a NaN as 0.
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
        #expect(!r.signaled && r.status == 0, "\(r.status): \(r.standardError.prefix(300))")
        let out = try AudioFileContents.read(folder.file("o.wav"))
        #expect(out.frames == 16_000 && out.channels[0].allSatisfy(\.isFinite))
    }
}
