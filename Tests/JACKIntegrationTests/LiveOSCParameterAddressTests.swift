import Foundation
import Testing
import VoiceTestSupport

/// Each declared parameter answers at an address of its own
/// (`/voicerack/compressor/threshold_dbfs f`), driven by liblo's `oscsend` with the replies heard
/// by `oscdump`: the secret and the key's range hold there as on `/voicerack/set`.
extension LiveClientTests {
    @Test(
        "OSC: oscsend to /voicerack/output/gain_db -12 lowers voice_out by 12 dB; /voicerack/compressor/threshold_dbfs sets and reads the compressor; secret and range hold",
        .enabled(
            if: oscToolsInstalled && Tools.jackCapture != nil && Tools.jackSimpleClient != nil,
            "liblo-tools, jack_capture or jack_simple_client is missing"))
    func oscParameterAddresses() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let secret = "parameter-address-secret-1"
        try (secret + "\n").write(toFile: folder + "/osc-secret", atomically: true, encoding: .utf8)
        let preset = folder + "/compressed.toml"
        try "base = \"raw\"\n[chain]\norder = \"compressor\"\n".write(toFile: preset, atomically: true, encoding: .utf8)
        let (dump, replyPort) = try Self.startOSCDump()
        defer { dump.stop(SIGKILL) }
        let rig = try SineRig([
            "--preset", preset, "--osc", "0", "--osc-reply-port", String(replyPort), "--osc-secret-file",
            folder + "/osc-secret",
        ])
        defer { rig.voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(rig.voicerack)
        /// The replies and errors `oscdump` heard so far, one line each.
        func answers(_ address: String) -> [Substring] {
            dump.output.split(separator: "\n").filter {
                ($0.contains(" /voicerack/reply ") || $0.contains(" /voicerack/error "))
                    && $0.contains("\"\(address)\"")
            }
        }

        let before = try rig.settledRMS()
        try Self.send(port, "/voicerack/output/gain_db", ["sf", secret, "-12"])
        #expect(poll(timeout: 10) { answers("/voicerack/output/gain_db").count == 1 }, "\(dump.output)")
        #expect(answers("/voicerack/output/gain_db").first?.contains("\"output.gain_db = -12\"") == true)
        let changeDB = 20 * log10(Double(try rig.voiceRMS() / before))
        #expect(abs(changeDB + 12) < 0.2, "voice_out changed \(changeDB) dB")

        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["sf", secret, "-18"])
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["s", secret])
        #expect(poll(timeout: 10) { answers("/voicerack/compressor/threshold_dbfs").count == 2 }, "\(dump.output)")
        let threshold = answers("/voicerack/compressor/threshold_dbfs")
        #expect(threshold.first?.contains("\"compressor.threshold_dbfs = -18\"") == true, "\(threshold)")
        // The read back: /voicerack/get's answer (key, value, allowed).
        #expect(threshold.last?.contains("\"compressor.threshold_dbfs\" -18") == true, "\(threshold)")

        // The key's range, and the secret, hold at the parameter's own address.
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["si", secret, "6"])
        #expect(
            poll(timeout: 10) {
                answers("/voicerack/compressor/threshold_dbfs").last?.contains("out of range; allowed -60...0 dBFS")
                    == true
            }, "\(dump.output)")
        try Self.send(port, "/voicerack/output/gain_db", ["f", "0"])
        #expect(poll(timeout: 10) { dump.output.contains("needs its secret") }, "\(dump.output)")
        #expect(
            abs(20 * log10(Double(try rig.voiceRMS() / before)) + 12) < 0.2, "the refused message changed the level")

        try Self.send(port, "/voicerack/help", ["s", secret])
        #expect(
            poll(timeout: 10) { dump.output.contains("\"/voicerack/compressor/threshold_dbfs VALUE  -60...0 dBFS\"") },
            "\(dump.output)")
        rig.stop()
    }
}
