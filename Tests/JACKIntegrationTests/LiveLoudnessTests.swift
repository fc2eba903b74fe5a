import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run` with `agc.target_lufs = -16` on a dummy jackd: the test peer plays spoken
/// words into mic_in in real time while voice_out is recorded; ffmpeg's `ebur128` filter (an
/// implementation of its own) reads the take. The live meter's figures reach OSC's meter
/// pushes and the exit summary.
extension LiveClientTests {
    static var liveLoudnessToolsAvailable: Bool {
        FFmpegLoudness.path != nil && SpokenText.available && TestPeer.executable != nil && oscPeerAvailable
    }

    /// The take's figures in the summary line `loudness of the take (voice_out): -16.1 LUFS, range
    /// 4.2 LU, true peak -1.3 dBTP`.
    static func takeLoudness(_ output: String) -> (integrated: Double, range: Double, truePeak: Double)? {
        guard let line = output.split(separator: "\n").last(where: { $0.contains("summary: loudness of the take") })
        else { return nil }
        let numbers = line.split(separator: ":").last!.split(whereSeparator: { " ,".contains($0) }).compactMap {
            Double($0)
        }
        return numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil
    }

    @Test(
        "run with agc.target_lufs = -16: the take reads -16 ± 1 LUFS after its first 10 s (ffmpeg); the meter's integrated figure agrees with ffmpeg within 0.5 LU; OSC's pushes and the summary carry it",
        .enabled(if: liveLoudnessToolsAvailable, "ffmpeg, espeak-ng, sox, python3-liblo or the test peer is missing"))
    func liveLoudnessTarget() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let preset = folder + "/loud16.toml"
        // The podcast preset's chain without its compressor, as in the offline test
        // (LoudnessTargetCommandTests): its 3:1 leaves the leveller's range short of -16 LUFS.
        try "base = \"podcast\"\n[chain]\norder = \"gate, deesser, limiter\"\n[agc]\ntarget_lufs = -16\n".write(
            toFile: preset, atomically: true, encoding: .utf8)
        // About 36 s of words at about -25 LUFS: 9 LU under the target.
        let speech = try SpokenText.write(folder + "/speech.wav", repeats: 3, gain: -5)
        let frames = try AudioFileContents.read(speech).frames
        let silence = try TestFiles.wav(folder + "/far.wav", [[Float](repeating: 0, count: frames)], rate: 48_000)
        let voicePath = folder + "/voice.wav"
        let (voicerack, _) = try launchRecordingClient(
            on: server, preset: preset, ["--record", voicePath, "--osc", "0"])
        defer { voicerack.stop(SIGKILL) }
        #expect(
            poll(timeout: 5) { voicerack.output.contains("steers to -16.0 LUFS short-term") }, "\(voicerack.output)")
        let port = try Self.oscPort(voicerack)
        let peer = try TestPeer.start(
            server: server, target: Self.recordingClient, mic: speech, ref: silence, out: folder + "/peer.wav")
        // Half way through, 3 s of meter pushes at 10 Hz.
        Thread.sleep(forTimeInterval: 18)
        let pushes = try #require(try Self.oscPeer(["meters", String(port), "10", "3"]).first)
        _ = TestPeer.finish(peer)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 30) == 0, "\(voicerack.output)")
        let output = voicerack.output

        // OSC: /voicerack/loudness beside every meter push, 5 figures, short-term near the target.
        let replies = pushes["replies"] as? [[Any]] ?? []
        let loudness = replies.filter { $0.first as? String == "/voicerack/loudness" }.map {
            $0.dropFirst().compactMap { ($0 as? NSNumber)?.doubleValue }
        }
        let meters = (pushes["meters"] as? [Double] ?? []).count
        #expect(meters >= 20 && abs(loudness.count - meters) <= 1, "\(loudness.count) loudness, \(meters) meters")
        #expect(loudness.allSatisfy { $0.count == 5 }, "\(loudness)")
        let shortTerm = loudness.map { $0[1] }
        print("live loudness: OSC short-term \(shortTerm.min() ?? 0)...\(shortTerm.max() ?? 0) LUFS")
        #expect(shortTerm.allSatisfy { abs($0 - -16) < 4 }, "\(shortTerm)")

        // The status line (logged every 5 s off a terminal): voice_out's short-term loudness.
        let statusLoudness = output.split(separator: "\n").filter { $0.contains("xruns") && $0.contains(" LUFS") }.map {
            line in Double(line.components(separatedBy: " LUFS")[0].split(separator: " ").last ?? "") ?? 0
        }
        #expect(statusLoudness.count >= 4, "\(output)")
        #expect(abs((statusLoudness.last ?? 0) - -16) < 3, "status lines: \(statusLoudness)")

        // The take: ffmpeg after its first 10 s; the meter's own reading of the whole take.
        let whole = try FFmpegLoudness.read(voicePath)
        let settled = try FFmpegLoudness.read(SpokenText.trim(voicePath, from: 10, to: folder + "/late.wav"))
        let meter = try #require(Self.takeLoudness(output), "no take loudness in the summary:\n\(output)")
        print(
            "live loudness: take after 10 s \(settled.integrated) LUFS (ffmpeg); whole take \(whole.integrated) LUFS ffmpeg, \(meter.integrated) LUFS meter; range \(whole.range) / \(meter.range) LU; true peak \(whole.truePeak) / \(meter.truePeak) dBTP"
        )
        #expect(abs(settled.integrated - -16) <= 1, "\(settled)")
        #expect(abs(meter.integrated - whole.integrated) <= 0.5, "meter \(meter), ffmpeg \(whole)")
        #expect(abs(meter.truePeak - whole.truePeak) <= 0.5, "meter \(meter), ffmpeg \(whole)")
    }
}
