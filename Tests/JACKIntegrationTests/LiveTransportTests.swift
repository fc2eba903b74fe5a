import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run --record-on-transport`: a take per transport roll, each file stamped with the
/// transport frame of its first sample (BWF `bext` time reference).
///
/// jack_transport (jackd2's tool) locates and rolls the transport twice; voicerack records the
/// voice (WAV) and the mic (RF64) only while it rolls. Each roll gives its own files, `voice.wav`
/// then `voice-take2.wav`, whose time references are the frames the transport was located to
/// (read twice: from the `bext` chunk's bytes, and through libsndfile).
extension LiveClientTests {
    @Test(
        "two transport rolls make two takes whose time references are the transport frames",
        .enabled(if: Tools.jackTransport != nil, "jack_transport (jackd2) is not installed; skipping"))
    func transportRollsMakeStampedTakes() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try JACKServer()
        defer { server.stop() }
        let (voicerack, _) = try launchRecordingClient(
            on: server,
            [
                "--record-on-transport", "--record", "voice=\(folder)/voice.wav", "--record", "mic=\(folder)/mic.rf64",
            ])
        defer { voicerack.stop(SIGKILL) }
        #expect(voicerack.output.contains("take 1 armed: recording while the JACK transport rolls"))

        let rolls = [96_000, 480_000]
        for (index, frame) in rolls.enumerated() { try roll(index + 1, from: frame, on: server, voicerack, in: folder) }
        voicerack.send(SIGINT)
        try #require(voicerack.waitForExit(timeout: 20) == 0, "voicerack:\n\(voicerack.output)")
        print(voicerack.output.split(separator: "\n").filter { $0.contains("take") }.joined(separator: "\n"))

        for (index, frame) in rolls.enumerated() {
            let suffix = index == 0 ? "" : "-take\(index + 1)"
            for path in ["\(folder)/voice\(suffix).wav", "\(folder)/mic\(suffix).rf64"] {
                let frames = try AudioFileContents.read(path).frames
                let fromBytes = try Self.bextTimeReference(path)
                let fromLibrary = AudioFileContents.timeReference(of: path)
                print("\(path): \(frames) frames, time reference \(fromBytes.map(String.init) ?? "none")")
                #expect(frames > 0, "\(path) is empty")
                #expect(fromBytes == UInt64(frame), "\(path): bext time reference")
                #expect(fromLibrary == UInt64(frame), "\(path): libsndfile's time reference")
            }
        }
        // The take armed after the last roll never rolled: no third file.
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/voice-take3.wav"))
    }

    /// One roll with jack_transport: locates to `frame`, rolls until voicerack's take `take`
    /// started there, stops, and waits until voicerack armed the next take. The locate and the
    /// play come from two jack_transport runs, so the locate has taken effect before the roll.
    func roll(_ take: Int, from frame: Int, on server: JACKServer, _ voicerack: ChildProcess, in folder: String) throws
    {
        try transport(server, "locate \(frame)\n", in: folder)
        try transport(server, "play\n", in: folder)
        try #require(
            poll(timeout: 20) { voicerack.output.contains("take \(take): recording from transport frame \(frame)") },
            "roll \(take) did not start a take at frame \(frame):\n\(voicerack.output)")
        try transport(server, "stop\n", in: folder)
        try #require(
            poll(timeout: 20) { voicerack.output.contains("take \(take + 1) armed") },
            "roll \(take) did not end its take:\n\(voicerack.output)")
    }

    /// Runs jack_transport on `server` with `commands` on its standard input (from a file in
    /// `folder`; it quits at the end of the file).
    func transport(_ server: JACKServer, _ commands: String, in folder: String) throws {
        let tool = try #require(Tools.jackTransport)
        let script = folder + "/transport-commands"
        try commands.write(toFile: script, atomically: true, encoding: .utf8)
        let child = try ChildProcess(
            tool, [], environment: Tools.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 },
            input: script)
        try #require(child.waitForExit(timeout: 10) == 0, "jack_transport '\(commands)':\n\(child.output)")
    }

    /// The `bext` chunk's TimeReference (bytes 338-345 of its data, little-endian) of a WAV or
    /// RF64 file, parsed from the bytes (not through libsndfile); nil without a `bext` chunk.
    static func bextTimeReference(_ path: String) throws -> UInt64? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var offset = 12  // "RIFF"/"RF64", size, "WAVE"
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "bext" {
                let at = offset + 8 + 338
                return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
            }
            if id == "data" { return nil }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}

extension LiveClientTests {
    @Test(
        "a backing track that follows the transport plays each roll from the transport's frame, sample for sample",
        .enabled(if: Tools.jackTransport != nil, "jack_transport (jackd2) is not installed; skipping"))
    func backingFollowsTheTransport() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = 48_000
        // A track whose every frame differs from its neighbours': a saw and a slow sine.
        let saw = (0..<rate * 8).map { Float($0 % 1_000) / 2_000 }
        let sine = (0..<rate * 8).map { Float(sin(Double($0) * 0.001) * 0.3) }
        let track = try TestFiles.wav(folder + "/track.wav", [saw, sine], rate: rate)
        let preset = folder + "/follow.toml"
        try "base = \"raw\"\n\n[backing]\nlevel_db = 0\n".write(toFile: preset, atomically: true, encoding: .utf8)
        let server = try JACKServer()
        defer { server.stop() }
        let (voicerack, _) = try launchRecordingClient(
            on: server, preset: preset,
            [
                "--backing", track, "--backing-follows-transport", "--record-on-transport", "--record",
                "reference=\(folder)/speakers.wav",
            ])
        defer { voicerack.stop(SIGKILL) }
        // The second locate goes backwards: the track must follow there too.
        let rolls = [144_000, 24_000]
        for (index, frame) in rolls.enumerated() { try roll(index + 1, from: frame, on: server, voicerack, in: folder) }
        voicerack.send(SIGINT)
        try #require(voicerack.waitForExit(timeout: 20) == 0, "voicerack:\n\(voicerack.output)")
        #expect(voicerack.output.contains(", 0 frames underrun"), "\(voicerack.output)")

        for (index, frame) in rolls.enumerated() {
            let path = "\(folder)/speakers\(index == 0 ? "" : "-take\(index + 1)").wav"
            let speakers = try AudioFileContents.read(path).channels
            let compared = min(speakers[0].count, saw.count - frame)
            var differing = 0
            for i in 0..<compared where speakers[0][i] != saw[frame + i] || speakers[1][i] != sine[frame + i] {
                differing += 1
            }
            print("\(path): roll from frame \(frame), \(compared) frames compared with the track, \(differing) differ")
            #expect(compared > 0, "\(path) is empty")
            #expect(differing == 0, "\(path): the track did not follow the transport to frame \(frame)")
        }
    }
}
