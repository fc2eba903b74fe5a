import Foundation
import Testing
import VoiceTestSupport

/// An LV2 unit in the live chain (x42's dpl from x42-plugins, 64 samples of look-ahead): its
/// latency on voice_out as `jack_lsp -l` shows it, a live `set` of its control measured on
/// voice_out, `save` writing the tuned plugin's state, a SIGHUP reload that swaps in a chain
/// with another plugin (LSP's limiter), and that plugin changing its latency live.
extension LiveClientTests {
    @Test(
        "LV2 unit live: jack_lsp -l shows its 64 samples on voice_out, set peak.gain -6 lowers voice_out by 6 dB and `save` keeps it in the plugin's state, a reload swaps in LSP's limiter, whose latency change reaches JACK",
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

        // `save` keeps the tuned plugin's own state: with the `gain` line taken out of the saved
        // preset, reloading it still gives -6 dB, from the state alone.
        let saved = folder + "/saved.toml"
        commands.write(Data("save \(saved)\n".utf8))
        rig.expectOutput("saved the running setup to \(saved)")
        let savedText = try String(contentsOfFile: saved, encoding: .utf8)
        let stateLine = savedText.split(separator: "\n").first { $0.hasPrefix("state = ") }
        #expect(stateLine?.contains("gain") == true, "no state with the gain port in:\n\(savedText)")
        let stateOnly = savedText.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("gain = ") }.joined(separator: "\n")
        #expect(stateOnly != savedText, "the saved preset sets no gain value:\n\(savedText)")
        try stateOnly.write(toFile: preset, atomically: true, encoding: .utf8)
        rig.voicerack.send(SIGHUP)
        rig.expectOutput("chain rebuilt: peak")
        let restoredDB = 20 * log10(Double(try rig.voiceRMS() / before))
        print("live LV2 saved state reloaded without its gain value: \(String(format: "%.2f", restoredDB)) dB")
        #expect(abs(restoredDB + 6) < 0.2)

        commands.write(Data("set peak.gain 31\n".utf8))
        rig.expectOutput("peak.gain = 31 is out of range; the plugin allows -10...30 dB")

        // Structural change: another plugin (LSP's limiter, 5 ms of look-ahead) instead, built off
        // the process thread and swapped in; voice_out's latency follows. Threshold 1 (0 dBFS).
        try
            "base = \"raw\"\n\n[chain]\norder = \"lim\"\n\n[lim]\nlv2 = \"http://lsp-plug.in/plugins/lv2/limiter_mono\"\nth = 1\n"
            .write(toFile: preset, atomically: true, encoding: .utf8)
        rig.voicerack.send(SIGHUP)
        rig.expectOutput("chain rebuilt: lim")
        #expect(voiceOutLatency(is: 240), "\((try? rig.server.lsp(["-l", "vr:voice_out"])) ?? "")")
        let swapped = try rig.voiceRMS()
        print("live LV2 chain swapped by SIGHUP to LSP's limiter: voice_out \(swapped) RMS")
        #expect(abs(20 * log10(Double(swapped / before))) < 0.2)

        // The plugin changes its reported latency (look-ahead 5 → 10 ms): recomputed off the
        // process thread and told to JACK.
        commands.write(Data("set lim.lk 10\n".utf8))
        rig.expectOutput("voice_out latency is now 480 samples")
        #expect(voiceOutLatency(is: 480), "\((try? rig.server.lsp(["-l", "vr:voice_out"])) ?? "")")

        // A reload whose plugin cannot be made (a state that is no LV2 state) keeps the running chain.
        try
            "base = \"raw\"\n\n[chain]\norder = \"lim\"\n\n[lim]\nlv2 = \"http://lsp-plug.in/plugins/lv2/limiter_mono\"\nstate = \"not turtle\"\n"
            .write(toFile: preset, atomically: true, encoding: .utf8)
        rig.voicerack.send(SIGHUP)
        rig.expectOutput("lim.state is not a state LV2 can restore: it is not valid Turtle; keeping the running setup")
        #expect(voiceOutLatency(is: 480))

        // `set chain.order` rebuilds the chain as a reload does; a unit with no section is refused.
        commands.write(Data("set chain.order lim, nope\n".utf8))
        rig.expectOutput("chain.order: unknown unit 'nope'")
        commands.write(Data("set chain.order \"\"\n".utf8))
        rig.expectOutput("(chain rebuilt)")
        #expect(voiceOutLatency(is: 0), "\((try? rig.server.lsp(["-l", "vr:voice_out"])) ?? "")")
        rig.stop()
    }
}
