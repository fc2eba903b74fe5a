import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

/// A recording killed with SIGKILL (no chance to close the file) must stay readable up to about
/// the last second before the kill.
@Suite("Recorder crash safety")
struct RecorderCrashTests {
    /// Where the child process records. The child cannot be handed a path, so it is derived from
    /// what parent and child share, the test bundle's own path: builds in other checkouts running
    /// at the same time use other files.
    static var path: String {
        let bundle = CommandLine.arguments[0].map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return FileManager.default.temporaryDirectory.appendingPathComponent("voicerack-sigkill-\(String(bundle.suffix(80))).wav").path
    }

    @Test("after SIGKILL the file opens with libsndfile and sox and holds all but the last second")
    func survivesSIGKILL() async throws {
        try? FileManager.default.removeItem(atPath: Self.path)
        defer { try? FileManager.default.removeItem(atPath: Self.path) }
        await #expect(processExitsWith: .signal(SIGKILL)) {
            let spec = RecordingSpec(
                path: RecorderCrashTests.path, format: try AudioFormat(parsing: "wav:float"), sampleRate: 48_000,
                channels: 1)
            let recording = try Recording(spec: spec)
            let signal = indexSignal(48_000 * 3)
            // Three seconds at about real-time pace (480 frames every 10 ms), then no goodbye.
            for start in stride(from: 0, to: signal.count, by: 480) {
                feed(recording, signal[start..<(start + 480)])
                usleep(10_000)
            }
            kill(getpid(), SIGKILL)
        }
        let file = try AudioFileContents.read(Self.path)
        #expect(file.frames >= 48_000 * 2, "only \(file.frames) frames survived")
        #expect(file.frames <= 48_000 * 3)
        #expect(file.channels[0] == indexSignal(file.frames))
        let sox = try CommandRunner.run("/usr/bin/soxi", ["-s", Self.path])
        #expect(sox.status == 0 && Int(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == file.frames)
    }
}
