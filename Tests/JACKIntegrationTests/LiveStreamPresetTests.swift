import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// A preset's `[stream]` section drives `voicerack run`'s stream, and SIGRTMIN+1 starts and
/// stops it, against a real icecast2 with ffmpeg listening.
extension LiveClientTests {
    @Test(
        "[stream] in a preset (autostart = false, password_file): the stream waits; SIGRTMIN+1 starts it (ffmpeg hears the voice at the recording's level within 1 dB, the preset's name on the mount) and stops it again, while recording goes on",
        .enabled(if: streamToolsAvailable, "icecast2, ffmpeg or jack_simple_client missing"))
    func presetStreamToggledBySignal() throws {
        let password = "pw-\(UInt32.random(in: 0...UInt32.max))"
        let bed = try StreamTestBed(password: password)
        defer { bed.stop() }
        let (icecast, server, folder) = (bed.icecast, bed.server, bed.folder)
        try (password + "\n").write(toFile: folder + "/pass", atomically: true, encoding: .utf8)
        let preset = folder + "/show.toml"
        try """
        base = "raw"
        [stream]
        url = "icecast://source@127.0.0.1:\(icecast.port)/preset.ogg"
        password_file = "pass"
        name = "preset show"
        autostart = false
        """.write(toFile: preset, atomically: true, encoding: .utf8)
        let local = folder + "/local.wav"
        let (voicerack, _) = try launchRecordingClient(on: server, preset: preset, ["--record", local])
        defer { voicerack.stop(SIGKILL) }
        let sine = try feedSine(on: server)
        defer { sine.stop(SIGTERM) }
        #expect(
            poll(timeout: 5) { voicerack.output.contains("ready; start it with `stream start` or kill -s RTMIN+1") },
            "\(voicerack.output)")
        #expect(!icecast.hasSource("/preset.ogg"), "streaming before the signal")

        let streamSignal = __libc_current_sigrtmin() + 1
        voicerack.send(streamSignal)
        #expect(
            poll(timeout: 15) { icecast.hasSource("/preset.ogg") }, "no source after SIGRTMIN+1:\n\(voicerack.output)")
        #expect(voicerack.output.contains("SIGRTMIN+1: streaming voice to icecast://source@127.0.0.1"))
        let stats = try CommandRunner.run(
            "/usr/bin/curl",
            ["-s", "-u", "admin:\(icecast.adminPassword)", "http://127.0.0.1:\(icecast.port)/admin/stats"])
        #expect(stats.standardOutput.contains("preset show"), "the preset's stream name is not on the mount")
        let listener = try Listener(url: "http://127.0.0.1:\(icecast.port)/preset.ogg", output: folder + "/heard.f32")
        // Two seconds of audio heard (4 bytes a sample at 48 kHz), then stop the stream.
        #expect(poll(timeout: 20) { Self.fileSize(listener.output) >= 2 * 48_000 * 4 }, "ffmpeg heard too little")
        voicerack.send(streamSignal)
        #expect(poll(timeout: 15) { !icecast.hasSource("/preset.ogg") }, "the source stayed after the second signal")
        #expect(listener.waitUntilExit(timeout: IcecastServer.listenerEndBound), "ffmpeg did not end with the stream")
        #expect(poll(timeout: 5) { voicerack.output.contains("SIGRTMIN+1: streamed voice to") }, "\(voicerack.output)")
        #expect(voicerack.isRunning, "voicerack stopped with the stream")

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 30) == 0, "\(voicerack.output)")
        #expect(!voicerack.output.contains(password), "the password appeared in voicerack's output")
        let figures = Self.summaryFigures(voicerack.output)
        #expect(figures.lost == 0, "\(voicerack.output)")
        #expect(figures.workOverruns == 0, "\(voicerack.output)")
        let heard = listener.samples
        let recorded = try AudioFileContents.read(local).channels[0]
        // The decoder's first 0.1 s may hold Opus's pre-skip fade-in: measured after it.
        let levelHeard = Measure.levelDB(heard, 4_800..<heard.count)
        let levelLocal = Measure.levelDB(recorded)
        print(
            "preset stream toggled by SIGRTMIN+1: heard \(String(format: "%.2f", Double(heard.count) / 48_000)) s at \(String(format: "%.2f", levelHeard)) dBFS; recording \(String(format: "%.2f", levelLocal)) dBFS; worst callback \(figures.worst.map { String(format: "%.1f", $0) } ?? "?")% of the period, most work \(figures.mostWork.map { String(format: "%.1f", $0) } ?? "?")%"
        )
        #expect(heard.count >= 2 * 48_000)
        #expect(abs(levelHeard - levelLocal) < 1)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
