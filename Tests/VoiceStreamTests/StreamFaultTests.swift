import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceStream
import VoiceTestSupport

/// Faults against a real icecast2: the server killed and restarted, the server stopped (SIGSTOP)
/// so the network stalls, wrong credentials, nothing listening. The producer (standing in for the
/// process thread) writes a stream and a recording in real time throughout; neither may lose a
/// frame to the producer, and no message may show the password.
@Suite("Streaming faults (icecast2)", .serialized, .enabled(if: IcecastServer.available))
struct StreamFaultTests {
    let rate = 48_000

    /// A stream and a recording fed by one paced producer.
    final class Run {
        let server: IcecastServer
        let stream: LiveStream
        let recording: Recording
        let producer: PacedProducer
        /// Every status text and message seen, for the credentials check.
        var texts: [String] = []

        init(server: IcecastServer, stream: LiveStream, recording: Recording, producer: PacedProducer) {
            self.server = server
            self.stream = stream
            self.recording = recording
            self.producer = producer
        }

        func watch() {
            texts.append(stream.status.text)
            texts += stream.takeMessages()
        }

        /// Waits until the producer wrote `seconds` of signal, noting status texts on the way.
        func waitForSignal(seconds: Double) -> Bool {
            let periods = Int(seconds * Double(producer.rate) / Double(producer.period))
            let deadline = Date().addingTimeInterval(seconds + 30)
            while producer.signalPeriods.load(ordering: .relaxed) < periods {
                if Date() > deadline { return false }
                watch()
                usleep(20_000)
            }
            return true
        }
    }

    func startRun(seconds: Double, password: String, format: String = "opus") throws -> Run {
        let server = try IcecastServer(sourcePassword: password)
        let target = try target(server, mount: "/fault.\(format)", format: format)
        try LiveStream.check(target, sampleRate: rate)
        let stream = try LiveStream.start(target, sampleRate: rate, channels: 1, options: quickOptions())
        let recording = try localRecording(server.folder.file("local.wav"), rate: rate)
        let producer = startedProducer(
            [stream.input, recording.input], chirpWithStep(seconds: seconds, rate: rate), rate: rate)
        // icecast's own logs name a refusal's cause (401: the password; 403: the mount in use).
        // Seen once in a full suite run and not again in three runs of this suite: "credentials
        // refused" at the first connection to a fresh server.
        #expect(waitFor(10) { stream.status.state == .live }, "live: \(stream.status.text)\n\(server.logs)")
        return Run(server: server, stream: stream, recording: recording, producer: producer)
    }

    @Test("server killed mid-stream and restarted: reconnects within the backoff, the recording loses nothing")
    func killAndRestart() throws {
        let password = "Kx7pQ2restart\(UInt16.random(in: 1000...9999))"
        let seconds = 12.0
        let run = try startRun(seconds: seconds, password: password)
        #expect(run.waitForSignal(seconds: 2))
        run.server.kill()
        let killedAt = monotonicSeconds()
        #expect(waitFor(5) { if case .reconnecting = run.stream.status.state { true } else { false } }, "drop noticed")
        #expect(run.waitForSignal(seconds: 4), "the producer writes on while the server is down")
        try run.server.start()
        let restartedAt = monotonicSeconds()
        let maximumBackoff = quickOptions().maximumBackoff
        let back = waitFor(maximumBackoff + 3) { run.stream.status.state == .live && run.stream.status.reconnects == 1 }
        let liveAt = monotonicSeconds()
        #expect(back, "live again: \(run.stream.status.text)")
        // The server lists a source in its stats once its thread runs, a moment after the login.
        #expect(waitFor(5) { run.server.hasSource("/fault.opus") }, "the server has the source again")
        run.producer.wait()
        let status = run.stream.waitUntilFinished()
        run.watch()
        let recorded = run.recording.waitUntilFinished()
        let downtime = liveAt - killedAt
        print(
            String(
                format: "stream kill/restart: live again %.2f s after the restart (backoff cap %.1f s), down %.2f s, ",
                liveAt - restartedAt, maximumBackoff, downtime)
                + String(format: "lost on air %.2f s, on air %.2f s; ", status.secondsLost, status.secondsOnAir)
                + "recording lost \(recorded.status.framesLost) frames, producer worst write "
                + "stream \(run.producer.worstWrite[0] / 1000) µs, recording \(run.producer.worstWrite[1] / 1000) µs")
        #expect(recorded.status.framesLost == 0)
        #expect(recorded.status.framesWritten == Int(seconds) * rate)
        #expect(run.stream.framesLostByProducer == 0, "the sender took every block while the server was down")
        #expect(status.reconnects == 1)
        #expect(abs(status.secondsLost - downtime) < 1, "the time off air is counted")
        #expect(abs(status.secondsOnAir + status.secondsLost - seconds) < 0.5)
        #expect(run.producer.worstWrite.allSatisfy { $0 < 50_000_000 }, "no write waited on the network")
        #expect(!run.texts.isEmpty && run.texts.allSatisfy { !$0.contains(password) }, "no text shows the password")
    }

    @Test("server stopped for 10 s: the producer's writes do not wait, the recording loses nothing")
    func stalledNetwork() throws {
        let seconds = 14.0
        var figures: [(String, UInt64, UInt64, StreamStatus)] = []
        for stall in [false, true] {
            let password = "Kx7pQ2stall\(UInt16.random(in: 1000...9999))"
            let run = try startRun(seconds: seconds, password: password)
            #expect(run.waitForSignal(seconds: 2))
            if stall {
                run.server.pause()
                #expect(run.waitForSignal(seconds: 12), "the producer writes on while the server is stopped")
                run.server.resume()
            }
            run.producer.wait()
            let status = run.stream.waitUntilFinished()
            run.watch()
            let recorded = run.recording.waitUntilFinished()
            figures.append(
                (stall ? "stalled 10 s" : "no stall", run.producer.worstWrite[0], run.producer.worstWrite[1], status))
            #expect(recorded.status.framesLost == 0)
            #expect(recorded.status.framesWritten == Int(seconds) * rate)
            #expect(run.stream.framesLostByProducer == 0)
            #expect(status.reconnects == 0, "a stall is ridden out, not a reconnect")
            #expect(run.producer.worstWrite.allSatisfy { $0 < 50_000_000 }, "no write waited on the network")
            #expect(run.texts.allSatisfy { !$0.contains(password) })
        }
        for (name, stream, recording, status) in figures {
            print(
                "stream \(name): producer worst write stream \(Double(stream) / 1000) µs, recording \(Double(recording) / 1000) µs; "
                    + status.text)
        }
    }

    @Test("wrong password: refused before start (77) and, mid-run, the stream stops while the producer goes on")
    func wrongPassword() throws {
        let server = try IcecastServer(sourcePassword: "right\(UInt32.random(in: 0...UInt32.max))")
        let wrong = "Kx7pQ2wrong\(UInt16.random(in: 1000...9999))"
        let bad = try target(server, mount: "/refused.opus", password: wrong)
        var texts: [String] = []
        do {
            try LiveStream.check(bad, sampleRate: rate)
            Issue.record("a wrong password passed the check")
        } catch {
            #expect(error.exitCode == 77)
            #expect(error.description.contains("refused the source credentials"))
            texts.append(error.description)
        }
        let stream = try LiveStream.start(bad, sampleRate: rate, channels: 1, options: quickOptions())
        let recording = try localRecording(server.folder.file("local.wav"), rate: rate)
        let producer = startedProducer(
            [stream.input, recording.input], chirpWithStep(seconds: 6, rate: rate), rate: rate)
        #expect(waitFor(10) { if case .stopped = stream.status.state { true } else { false } })
        texts.append(stream.status.text)
        producer.wait()
        let status = stream.waitUntilFinished()
        texts += stream.takeMessages() + [status.text]
        #expect(status.state == .stopped(reason: "credentials refused"))
        #expect(status.error?.exitCode == 77)
        #expect(texts.contains { $0.hasPrefix("stream stopped:") })
        #expect(recording.waitUntilFinished().status.framesLost == 0)
        #expect(stream.framesLostByProducer == 0)
        #expect(texts.allSatisfy { !$0.contains(wrong) && !$0.contains(server.sourcePassword) })
        print("stream wrong password: " + texts.joined(separator: " | "))
    }

    @Test("nothing listening: unreachable (69)")
    func nothingListening() throws {
        let port = try IcecastServer.freePort()
        var settings = StreamSettings(url: "icecast://source:pw@127.0.0.1:\(port)/none.opus")
        settings.format = "opus"
        let target = try settings.resolve()
        do {
            try LiveStream.check(target, sampleRate: rate)
            Issue.record("check passed with nothing listening")
        } catch {
            #expect(error.exitCode == 69)
            #expect(error.description.contains("127.0.0.1:\(port)"))
            #expect(!error.description.contains(":pw@"))
        }
    }
}

/// Monotonic seconds.
func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }
