import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run --stream` against a real icecast2 and a real listener (ffmpeg): the stream
/// carries what the local recording holds.
extension LiveClientTests {
    static var streamToolsAvailable: Bool {
        IcecastServer.available && Tools.which("ffmpeg") != nil && Tools.jackSimpleClient != nil
    }

    /// What a stream test stands on: an icecast2 with `password` for sources, a private jackd
    /// and a recording folder. `stop()` stops both servers and removes the folder. - Test thread.
    final class StreamTestBed {
        let icecast: IcecastServer
        let server: JACKServer
        let folder: String

        init(password: String) throws {
            icecast = try IcecastServer(sourcePassword: password)
            server = try JACKServer()
            folder = try LiveClientTests.recordingFolder()
        }

        func stop() {
            icecast.stop()
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test(
        "run --stream: ffmpeg decodes the mount; it matches the local recording from the listener's join on (none missing ±1 s, level within 1 dB, same content); the password is never printed",
        .enabled(if: streamToolsAvailable, "icecast2, ffmpeg or jack_simple_client missing"))
    func streamsWhatItRecords() throws {
        let password = "s3cret-\(UInt32.random(in: 0...UInt32.max))"
        let bed = try StreamTestBed(password: password)
        defer { bed.stop() }
        let (icecast, server, folder) = (bed.icecast, bed.server, bed.folder)
        let local = folder + "/local.wav", decoded = folder + "/decoded.wav"
        let url = "icecast://source:\(password)@127.0.0.1:\(icecast.port)/live.ogg"
        let rate = 48_000
        let speech = try TestFiles.wav(
            folder + "/speech.wav", [Signals.speechLike(count: rate * 8, sampleRate: rate, rms: 0.08, seed: 61)],
            rate: rate)
        let silence = try TestFiles.wav(folder + "/far.wav", [[Float](repeating: 0, count: rate * 8)], rate: rate)
        let (voicerack, _) = try launchRecordingClient(on: server, ["--stream", url, "--record", local])
        defer { voicerack.stop(SIGKILL) }
        #expect(poll(timeout: 15) { icecast.hasSource("/live.ogg") }, "no source on the mount:\n\(voicerack.output)")
        // A real listener from the moment the mount exists until the stream ends, while the peer
        // plays 8 s of speech.
        let listener = try ChildProcess(
            Tools.which("ffmpeg")!,
            [
                "-nostdin", "-loglevel", "error", "-i", "http://127.0.0.1:\(icecast.port)/live.ogg", "-ac", "1",
                "-ar", "48000", "-c:a", "pcm_f32le", decoded,
            ])
        defer { listener.stop(SIGKILL) }
        #expect(poll(timeout: 10) { icecast.listeners("/live.ogg") > 0 }, "ffmpeg did not connect: \(listener.output)")
        let peer = try TestPeer.start(
            server: server, target: Self.recordingClient, mic: speech, ref: silence, out: folder + "/peer.wav")
        _ = TestPeer.finish(peer)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 30) == 0, "\(voicerack.output)")
        // The stream's end reaches the listener, which then finishes its file.
        let listenerStatus = listener.waitForExit(timeout: 30)
        try #require(listenerStatus == 0, "ffmpeg: \(listener.output)")
        let output = voicerack.output
        #expect(output.contains("streaming voice to icecast://source@127.0.0.1:\(icecast.port)/live.ogg"), "\(output)")
        #expect(output.contains("summary: streamed voice to"), "\(output)")
        #expect(!output.contains(password), "the password appeared in voicerack's output")

        let heard = try AudioFileContents.read(decoded).channels[0]
        let recorded = try AudioFileContents.read(local).channels[0]
        let c = StreamComparison(decoded: heard, local: recorded, rate: rate)
        print("stream: \(c)")
        // The recording starts with the run, the listener when ffmpeg has started and joined,
        // which under load can be seconds later (the server has no burst on connect): from the
        // join on, under a second may differ (the stream's end), none missing in between.
        #expect(c.joinSeconds > -0.5 && c.joinSeconds < 20, "joined at \(c.joinSeconds) s")
        #expect(abs(c.missingAfterJoinSeconds) < 1, "audio missing after the listener joined")
        // Same content: a second of the decoded speech found in the recording, correlating above 0.9.
        #expect(c.correlation > 0.9)
        #expect(abs(c.decodedLevelDB - c.localLevelDB) < 1)
    }
}

extension LiveClientTests {
    /// Runs `voicerack run --stream … --record …` with a sine on mic_in for `seconds`, calling
    /// `during` half way; returns voicerack's output.
    private func streamRun(icecast: IcecastServer, seconds: Double, during: () -> Void) throws -> String {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = "icecast://source:\(icecast.sourcePassword)@127.0.0.1:\(icecast.port)/fault.ogg"
        let (voicerack, _) = try launchRecordingClient(
            on: server, ["--stream", url, "--record", folder + "/local.wav"])
        defer { voicerack.stop(SIGKILL) }
        let sine = try feedSine(on: server)
        defer { sine.stop(SIGTERM) }
        #expect(poll(timeout: 15) { voicerack.output.contains("stream live") }, "\(voicerack.output)")
        Thread.sleep(forTimeInterval: seconds / 2)
        during()
        Thread.sleep(forTimeInterval: seconds / 2)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 40) == 0, "\(voicerack.output)")
        return voicerack.output
    }

    /// The summary's figures: recording frames lost, callback overruns by own work, the worst
    /// callback (wall time) and the most CPU time one callback used, both in % of the period.
    static func summaryFigures(_ output: String) -> (lost: Int?, workOverruns: Int?, worst: Double?, mostWork: Double?)
    {
        func number(after marker: String, in line: Substring?) -> Double? {
            guard let line, let r = line.range(of: marker) else { return nil }
            return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        let lines = output.split(separator: "\n")
        let recorded = lines.first { $0.contains("summary: recorded voice") }
        let callback = lines.first { $0.contains("summary: callback:") }
        return (
            number(after: "lost ", in: recorded).map(Int.init), number(after: "period (", in: callback).map(Int.init),
            number(after: "worst ", in: callback), number(after: "most work ", in: callback)
        )
    }

    @Test(
        "run --stream: the server stalled (SIGSTOP) for 10 s: the recording loses nothing and the callback is never late by its own work; the server killed and restarted: the stream comes back, the recording loses nothing",
        .enabled(if: streamToolsAvailable, "icecast2, ffmpeg or jack_simple_client missing"))
    func streamFaultsNeverReachTheProcessThread() throws {
        let icecast = try IcecastServer(sourcePassword: "pw-\(UInt32.random(in: 0...UInt32.max))")
        defer { icecast.stop() }
        let calm = try streamRun(icecast: icecast, seconds: 12) {}
        let stalled = try streamRun(icecast: icecast, seconds: 12) {
            icecast.pause()
            Thread.sleep(forTimeInterval: 10)
            icecast.resume()
        }
        let restarted = try streamRun(icecast: icecast, seconds: 8) {
            icecast.kill()
            Thread.sleep(forTimeInterval: 1)
            do { try icecast.start() } catch { Issue.record("icecast2 did not come back: \(error)") }
        }
        for (name, output) in [("calm", calm), ("stalled", stalled), ("restarted", restarted)] {
            let f = Self.summaryFigures(output)
            print(
                "stream fault run \(name): recording lost \(f.lost.map(String.init) ?? "?"), callback overruns by own work \(f.workOverruns.map(String.init) ?? "?"), worst callback \(f.worst.map { String(format: "%.1f", $0) } ?? "?")% of the period, most work \(f.mostWork.map { String(format: "%.1f", $0) } ?? "?")%"
            )
            #expect(f.lost == 0, "\(name): \(output)")
            #expect(f.workOverruns == 0, "\(name): \(output)")
        }
        #expect(restarted.contains("stream dropped") || restarted.contains("reconnect"), "\(restarted)")
        let lines = restarted.split(separator: "\n").filter { $0.contains("stream live") }
        #expect(lines.count >= 2, "live again after the restart:\n\(restarted)")
    }
}
