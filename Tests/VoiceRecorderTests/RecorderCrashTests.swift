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
        return FileManager.default.temporaryDirectory.appendingPathComponent(
            "voicerack-sigkill-\(String(bundle.suffix(80))).wav"
        ).path
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
        #expect(
            sox.status == 0 && Int(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == file.frames)
    }
}

/// Every recording format after SIGKILL: what survives of a take, against the bound the manual
/// and `run --help` state (about a second; Ogg Vorbis about two, as libsndfile writes a Vorbis page
/// only once it is full and offers no flush).
@Suite("Recorder crash safety per format")
struct RecorderFormatCrashTests {
    /// Seconds recorded before the kill.
    static let seconds = 4.0

    @Test(
        "after SIGKILL a take keeps all but its last moments",
        arguments: [
            ("wav", 0.5), ("w64", 0.5), ("rf64", 0.5), ("caf", 0.5), ("flac", 0.5), ("opus", 0.5), ("mp3", 0.5),
            ("ogg", 2.5),
        ])
    func survivesSIGKILL(container: String, bound: Double) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voicerack-sigkill-\(getpid())-\(UUID().uuidString).\(container)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, container = container as String] in
            let spec = RecordingSpec(
                path: path, format: try AudioFormat(parsing: container), sampleRate: 48_000, channels: 1)
            let recording = try Recording(spec: spec)
            let total = Int(RecorderFormatCrashTests.seconds * 48_000)
            let tone = (0..<total).map { 0.3 * sinf(2 * .pi * 440 * Float($0) / 48_000) }
            // At about real-time pace (480 frames every 10 ms), then no goodbye.
            for start in stride(from: 0, to: total, by: 480) {
                feed(recording, tone[start..<(start + 480)])
                usleep(10_000)
            }
            kill(getpid(), SIGKILL)
        }
        let kept = Double(try AudioFileContents.read(path).frames) / 48_000
        print("SIGKILL after \(Self.seconds) s of \(container): \(String(format: "%.2f", kept)) s kept")
        #expect(kept >= Self.seconds - bound, "\(container): \(kept) s of \(Self.seconds) s survived")
        #expect(kept <= Self.seconds + 0.1)
    }
}
