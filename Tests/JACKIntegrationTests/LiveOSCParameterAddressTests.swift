import Foundation
import Testing
import VoiceTestSupport

/// Each declared parameter answers at an address of its own
/// (`/voicerack/compressor/threshold_dbfs f`), driven by liblo's `oscsend` with the replies heard
/// by `oscdump`: the secret and the key's range hold there as on `/voicerack/set`.
extension LiveClientTests {
    @Test(
        "OSC: oscsend to /voicerack/compressor/threshold_dbfs -18 takes 1.5 dB off the compression; no value reads it back; secret and range hold",
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

        // The sine's peak (-14 dBFS) is 6 dB over the compressor's threshold (-20 dBFS): at ratio 4,
        // past the 6 dB knee's half, 4.5 dB of reduction. At -18 dBFS it is 4 dB over: 3 dB.
        let before = try rig.settledRMS()
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["sf", secret, "-18"])
        #expect(poll(timeout: 10) { answers("/voicerack/compressor/threshold_dbfs").count == 1 }, "\(dump.output)")
        let set = answers("/voicerack/compressor/threshold_dbfs")
        #expect(set.first?.contains("\"compressor.threshold_dbfs = -18\"") == true, "\(set)")
        let changeDB = 20 * log10(Double(try rig.settledRMS() / before))
        print("OSC /voicerack/compressor/threshold_dbfs -18: voice_out \(String(format: "%+.2f", changeDB)) dB")
        #expect(abs(changeDB - 1.5) < 0.3, "voice_out changed \(changeDB) dB")

        // No value: read it back, as /voicerack/get answers (key, value, allowed).
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["s", secret])
        #expect(poll(timeout: 10) { answers("/voicerack/compressor/threshold_dbfs").count == 2 }, "\(dump.output)")
        let read = answers("/voicerack/compressor/threshold_dbfs").last ?? ""
        #expect(read.contains("\"compressor.threshold_dbfs\" -18") && read.contains("-60...0 dBFS"), "\(read)")

        // The key's range, and the secret, hold at the parameter's own address.
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["si", secret, "6"])
        #expect(
            poll(timeout: 10) {
                answers("/voicerack/compressor/threshold_dbfs").last?.contains("out of range; allowed -60...0 dBFS")
                    == true
            }, "\(dump.output)")
        try Self.send(port, "/voicerack/compressor/threshold_dbfs", ["f", "0"])
        #expect(poll(timeout: 10) { dump.output.contains("needs its secret") }, "\(dump.output)")
        let afterRefusals = 20 * log10(Double(try rig.settledRMS() / before))
        #expect(abs(afterRefusals - changeDB) < 0.2, "a refused message changed the level: \(afterRefusals) dB")

        try Self.send(port, "/voicerack/help", ["s", secret])
        #expect(
            poll(timeout: 10) { dump.output.contains("\"/voicerack/compressor/threshold_dbfs VALUE  -60...0 dBFS\"") },
            "\(dump.output)")
        rig.stop()
    }
}
