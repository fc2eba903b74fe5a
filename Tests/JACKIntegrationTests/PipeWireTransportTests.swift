import Foundation
import Testing
import VoiceFiles

/// `--record-on-transport` on PipeWire's JACK (0.3.65 here): jack_transport rolls and stops its
/// transport, and each roll is a take stamped with the frame PipeWire reported for the take's
/// first sample. (PipeWire 0.3.65 ignores jack_transport_locate: the rolls start wherever its
/// transport stands, so the frames are read from voicerack's log, not chosen.)
extension LiveClientTests {
    @Test(
        "PipeWire's JACK: two transport rolls make two takes stamped with the frames PipeWire reported",
        .enabled(
            if: PipeWireServer.available && Tools.jackTransport != nil,
            "pipewire, pipewire-jack or jack_transport is missing"))
    func pipeWireTransportRolls() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (voicerack, _) = try launchVoicerack(
            on: server, ["--record-on-transport", "--record", "voice=\(folder)/voice.wav"])
        defer { voicerack.stop(SIGKILL) }
        func transport(_ command: String) throws {
            let script = folder + "/transport-commands"
            try (command + "\n").write(toFile: script, atomically: true, encoding: .utf8)
            let child = try ChildProcess(
                PipeWireServer.pwJack!, [Tools.jackTransport!], environment: server.environment, input: script)
            try #require(child.waitForExit(timeout: 10) == 0, "jack_transport \(command):\n\(child.output)")
        }
        var frames: [Int] = []
        for take in 1...2 {
            try transport("play")
            let opened = "take \(take): recording from transport frame "
            try #require(poll(timeout: 20) { voicerack.output.contains(opened) }, "\(voicerack.output)")
            let output = voicerack.output
            frames.append(Int(output[output.range(of: opened)!.upperBound...].prefix { $0.isNumber }) ?? -1)
            try transport("stop")
            try #require(
                poll(timeout: 20) { voicerack.output.contains("take \(take + 1) armed") }, "\(voicerack.output)")
        }
        voicerack.send(SIGINT)
        try #require(voicerack.waitForExit(timeout: 20) == 0, "voicerack:\n\(voicerack.output)")
        for (index, frame) in frames.enumerated() {
            let path = "\(folder)/voice\(index == 0 ? "" : "-take\(index + 1)").wav"
            let reference = try Self.bextTimeReference(path)
            print(
                "PipeWire roll \(index + 1): \(path), \(try AudioFileContents.read(path).frames) frames, time reference \(reference.map(String.init) ?? "none"), reported frame \(frame)"
            )
            #expect(try AudioFileContents.read(path).frames > 0, "\(path) is empty")
            #expect(frame >= 0 && reference == UInt64(frame), "\(path): time reference vs the reported frame")
        }
        // Stopped, the transport stands still: roll 2 starts where roll 1's take ended.
        let firstTake = try AudioFileContents.read("\(folder)/voice.wav").frames
        #expect(
            frames[1] == frames[0] + firstTake,
            "roll 2 from \(frames[1]); roll 1: \(firstTake) frames from \(frames[0]); voicerack:\n\(voicerack.output)")
    }
}
