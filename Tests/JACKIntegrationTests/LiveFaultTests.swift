import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Faults around a running `voicerack run`: its standard output going away, its terminal hanging
/// up, a stopped server while it stops, and the process itself stopped for seconds. In each, what
/// was recorded must be kept, finalised, with a true timeline.
extension LiveClientTests {
    @Test(
        "standard output piped into `head` goes away: voicerack keeps running, and SIGINT finalises the recording (exit 0)",
        .enabled(if: Tools.jackSimpleClient != nil, "jack_simple_client is not installed"))
    func vanishedStandardOutput() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Tools.voicerack)
        let script = """
            mkfifo "$F/out"
            head -n 1 < "$F/out" > "$F/first.txt" &
            "$VR" run --server "$SERVER" --name vr-pipe --no-auto-connect --preset raw --record "$F/voice.flac" > "$F/out" 2>&1 &
            pid=$!
            sleep 7  # the status line every 5 s is written into the closed pipe
            kill -INT $pid; wait $pid; echo "voicerack-exit=$?"
            """
        let (status, output) = try runTool(
            "/bin/bash", ["-c", script], timeout: 40, environment: ["F": folder, "VR": binary, "SERVER": server.name])
        #expect(status == 0)
        #expect(output.contains("voicerack-exit=0"), "\(output)")
        let first = (try? String(contentsOfFile: folder + "/first.txt", encoding: .utf8)) ?? ""
        #expect(first.contains("running as JACK client"), "head saw: \(first)")
        let voice = try AudioFileContents.read(folder + "/voice.flac")
        #expect(Self.seconds(voice) > 6 && Self.seconds(voice) < 9, "the FLAC holds \(Self.seconds(voice)) s")
    }

    @Test(
        "the terminal hangs up (kernel SIGHUP): voicerack stops cleanly and finalises, it does not reload",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is missing"))
    func terminalHangUp() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Tools.voicerack)
        // A pseudo-terminal whose master the "terminal" closes after 3 s: the kernel sends SIGHUP
        // to voicerack, the session leader on it.
        let python = """
            import os, pty, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            deadline = time.time() + 3
            while time.time() < deadline:
                try:
                    os.read(fd, 4096)
                except OSError:
                    break
            os.close(fd)
            _, status = os.waitpid(pid, 0)
            print("voicerack-status=%d" % status)
            """
        let (status, output) = try runTool(
            "/usr/bin/python3",
            [
                "-c", python, binary, "run", "--server", server.name, "--name", "vr-tty", "--no-auto-connect",
                "--preset", "raw",
                "--record", folder + "/voice.wav",
            ],
            timeout: 30)
        #expect(status == 0, "\(output)")
        #expect(output.contains("voicerack-status=0"), "exits 0 on a hang-up: \(output)")
        let voice = try AudioFileContents.read(folder + "/voice.wav")
        #expect(Self.seconds(voice) > 2 && Self.seconds(voice) < 5, "the take holds \(Self.seconds(voice)) s")
    }

    @Test(
        "SIGINT while the server is stopped (SIGSTOP): the FLAC is finalised and voicerack exits within the timeout; a second SIGINT exits at once",
        .enabled(if: Tools.jackSimpleClient != nil, "jack_simple_client is not installed"))
    func stuckServerDoesNotHangTheExit() throws {
        for secondSignal in [false, true] {
            let server = try JACKServer()
            defer {
                kill(server.jackd.pid, SIGCONT)
                server.stop()
            }
            let folder = try Self.recordingFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let take = folder + "/voice.flac"
            let (voicerack, _) = try launchRecordingClient(on: server, ["--record", take])
            defer { voicerack.stop(SIGKILL) }
            Thread.sleep(forTimeInterval: 1.5)
            kill(server.jackd.pid, SIGSTOP)
            let stopAsked = Date()
            voicerack.send(SIGINT)
            if secondSignal {
                #expect(
                    poll(timeout: 5) { voicerack.output.contains("summary: recorded voice") }, "\(voicerack.output)")
                voicerack.send(SIGINT)
            }
            let status = voicerack.waitForExit(timeout: 30)
            let took = Date().timeIntervalSince(stopAsked)
            print(
                "stuck server, second signal \(secondSignal): exit \(status.map(String.init) ?? "none") after \(String(format: "%.1f", took)) s"
            )
            #expect(status == (secondSignal ? 69 : 0), "\(voicerack.output)")
            #expect(took < (secondSignal ? 6 : 15), "took \(took) s")
            #expect(voicerack.output.contains("summary: recorded voice to \(take)"), "\(voicerack.output)")
            // Finalised: libsndfile knows its length (an unfinalised FLAC has none).
            let voice = try AudioFileContents.read(take)
            #expect(Self.seconds(voice) > 1 && Self.seconds(voice) < 4, "the FLAC holds \(Self.seconds(voice)) s")
        }
    }

    @Test(
        "voicerack stopped (SIGSTOP) for 2 s: the recording's timeline keeps the gap as silence and the summary counts it",
        .enabled(if: Tools.jackSimpleClient != nil, "jack_simple_client is not installed"))
    func stoppedProcessIsPadded() throws {
        // Asynchronous, as jackd runs for users: its timeline goes on while voicerack is stopped.
        let server = try JACKServer(synchronous: false)
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let take = folder + "/voice.wav"
        let (voicerack, started) = try launchRecordingClient(on: server, ["--record", take])
        defer { voicerack.stop(SIGKILL) }
        let sine = try feedSine(on: server)
        defer { sine.stop(SIGTERM) }
        Thread.sleep(forTimeInterval: 1)
        kill(voicerack.pid, SIGSTOP)
        Thread.sleep(forTimeInterval: 2)
        kill(voicerack.pid, SIGCONT)
        Thread.sleep(forTimeInterval: 1)
        let elapsed = Date().timeIntervalSince(started)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let output = voicerack.output
        let voice = try AudioFileContents.read(take)
        print(
            "stopped for 2 s: the take holds \(Self.seconds(voice)) s of \(elapsed) s run; \(output.split(separator: "\n").filter { $0.contains("summary") })"
        )
        // The file's timeline is the wall clock's, the stop included.
        #expect(
            abs(Self.seconds(voice) - elapsed) < 0.6,
            "the take holds \(Self.seconds(voice)) s, voicerack ran \(elapsed) s")
        #expect(output.contains("frames not run (padded with silence)"), "\(output)")
        // The gap is silence, the rest the sine (0.2 peak on mic_in, raw preset).
        let silent = (0..<voice.frames).filter { voice.channels[0][$0] == 0 }.count
        #expect(Double(silent) / 48_000 > 1.5, "\(Double(silent) / 48_000) s of silence")
    }
}
