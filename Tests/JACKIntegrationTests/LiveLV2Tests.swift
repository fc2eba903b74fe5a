import Foundation
import Testing
import VoiceTestSupport

/// An LV2 unit in the live chain (x42's dpl from x42-plugins, 64 samples of look-ahead): its
/// latency on voice_out as `jack_lsp -l` shows it, a live `set` of its control measured on
/// voice_out, and a SIGHUP reload that takes it out of the chain (a new chain swapped in).
extension LiveClientTests {
    @Test(
        "LV2 unit live: jack_lsp -l shows its 64 samples on voice_out, set peak.gain -6 lowers voice_out by 6 dB, a reload without it swaps the chain",
        .enabled(
            if: Tools.jackCapture != nil && Tools.jackSimpleClient != nil,
            "jack_capture or jack_simple_client is missing"))
    func lv2UnitLive() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let preset = folder + "/lv2.toml"
        // raw adds no latency of its own (no preprocessor, frames = periods): all of voice_out's
        // latency is the plugin's. Threshold 0 dBFS: the 0.2-amplitude sine is never limited.
        let withPlugin =
            "base = \"raw\"\n\n[chain]\norder = \"peak\"\n\n[peak]\nlv2 = \"http://gareus.org/oss/lv2/dpl#mono\"\nthreshold = 0\n"
        try withPlugin.write(toFile: preset, atomically: true, encoding: .utf8)
        let fifo = folder + "/control"
        #expect(mkfifo(fifo, 0o600) == 0)
        let rig = try SineRig(["--preset", preset, "--control"], input: fifo)
        defer { rig.voicerack.stop(SIGKILL) }
        let commands = try #require(FileHandle(forWritingAtPath: fifo))

        func voiceOutLatency(is samples: Int) -> Bool {
            poll(timeout: 10) {
                (try? rig.server.lsp(["-l", "vr:voice_out"]))?.contains("capture latency = [ \(samples) \(samples) ]")
                    == true
            }
        }
        #expect(Self.statedLatency(rig.voicerack.output) == 64, "\(rig.voicerack.output)")
        #expect(voiceOutLatency(is: 64), "\((try? rig.server.lsp(["-l", "vr:voice_out"])) ?? "")")

        let before = try rig.settledRMS()
        commands.write(Data("set peak.gain -6\n".utf8))
        rig.expectOutput("peak.gain = -6")
        let after = try rig.voiceRMS()
        let changeDB = 20 * log10(Double(after / before))
        print("live LV2 set peak.gain -6: voice_out \(before) → \(after) RMS (\(String(format: "%.2f", changeDB)) dB)")
        #expect(abs(before - Self.sineRMS) < 0.015)
        #expect(abs(changeDB + 6) < 0.2)

        commands.write(Data("set peak.gain 31\n".utf8))
        rig.expectOutput("peak.gain = 31 is out of range; the plugin allows -10...30 dB")

        // Structural change: the chain without the plugin, built off the process thread and
        // swapped in; voice_out's latency drops by the plugin's 64 samples.
        try "base = \"raw\"\n".write(toFile: preset, atomically: true, encoding: .utf8)
        rig.voicerack.send(SIGHUP)
        rig.expectOutput("chain rebuilt")
        #expect(voiceOutLatency(is: 0), "\((try? rig.server.lsp(["-l", "vr:voice_out"])) ?? "")")
        let without = try rig.voiceRMS()
        print("live LV2 chain removed by SIGHUP: voice_out \(without) RMS")
        #expect(abs(20 * log10(Double(without / before))) < 0.2)
        rig.stop()
    }
}
