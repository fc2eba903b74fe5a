import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Audio through the live path: jack_simple_client's sine (amplitude 0.2) into mic_in and
/// far_in_L, jack_capture recording voice_out, speaker_out_L and monitor_out_L.
///
/// In the same (serialized) suite as the other live tests, so only one jackd runs at a time.
extension LiveClientTests {
    @Test(
        "raw preset: voice_out is the mic, speaker_out_L is the far end, the monitor is silent",
        .enabled(
            if: Tools.jackCapture != nil && Tools.jackSimpleClient != nil,
            "jack_capture or jack_simple_client is not installed; skipping the live audio test"))
    func audioFlows() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let voicerack = try ChildProcess(
            binary, ["run", "--server", server.name, "--name", "vr", "--no-auto-connect", "--preset", "raw"],
            environment: Tools.environment)
        defer { voicerack.stop(SIGKILL) }
        // jack_simple_client NAME SERVER: two sine outputs, auto-connected to the speakers too.
        let sine = try ChildProcess(Tools.jackSimpleClient!, ["sine", server.name], environment: Tools.environment)
        defer { sine.stop(SIGTERM) }
        let ready = poll(timeout: 10) {
            guard voicerack.isRunning, sine.isRunning, let ports = try? server.portProperties() else { return false }
            return ports["vr:monitor_out_R"] != nil && ports["sine:output2"] != nil
        }
        try #require(ready, "voicerack:\n\(voicerack.output)\nsine:\n\(sine.output)")
        #expect(try server.connect("sine:output1", "vr:mic_in") == 0)
        #expect(try server.connect("sine:output2", "vr:far_in_L") == 0)

        let path = NSTemporaryDirectory() + "voicerack-it-\(getpid())-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Until stopped, not `-d 1`: a `-d` take now and then never finished on a loaded machine.
        let audio = try server.capture(
            ["vr:voice_out", "vr:speaker_out_L", "vr:monitor_out_L"], frames: 48_000, to: path)
        #expect(audio.sampleRate == 48_000)
        try #require(audio.channels.count == 3 && audio.frames >= 24_000, "\(audio.frames) frames")
        // The second half: well after connections settled. A 0.2-amplitude sine has RMS 0.1414.
        let half = (audio.frames / 2)..<audio.frames
        let voice = Measure.rms(audio.channels[0], half)
        let speaker = Measure.rms(audio.channels[1], half)
        let monitor = Measure.rms(audio.channels[2], half)
        #expect(abs(voice - 0.1414) < 0.015, "voice_out RMS \(voice)")
        #expect(abs(speaker - 0.1414) < 0.015, "speaker_out_L RMS \(speaker)")
        #expect(monitor == 0, "monitor_out_L RMS \(monitor)")

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "output:\n\(voicerack.output)")
    }
}
