import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// Takes toggled with SIGUSR1 never overwrite an earlier take of the same run, even when the
/// template gives the same name twice ({time} within one second, with --force); `{n}` numbers
/// the takes.
extension LiveClientTests {
    /// Toggles `takes - 1` more takes after the first (which --record starts) as fast as the
    /// client answers, then stops it; returns the paths it reported and its output.
    func toggleTakes(_ template: String, takes: Int, in folder: String) throws -> (paths: [String], output: String) {
        let server = try JACKServer()
        defer { server.stop() }
        let (voicerack, _) = try launchRecordingClient(on: server, ["--record", template, "--force"], in: folder)
        defer { voicerack.stop(SIGKILL) }
        func count(_ text: String) -> Int { voicerack.output.components(separatedBy: text).count - 1 }
        for take in 2...takes {
            voicerack.send(SIGUSR1)
            #expect(poll(timeout: 10) { count("recorded voice to") == take - 1 }, "\(voicerack.output)")
            voicerack.send(SIGUSR1)
            #expect(poll(timeout: 10) { count("SIGUSR1: recording voice to") == take - 1 }, "\(voicerack.output)")
        }
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        let output = voicerack.output
        let paths = output.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "recording voice to ") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " })
        }
        return (paths, output)
    }

    @Test("--record 'take-{time}.wav' --force: toggles within a second keep every take")
    func takesWithinASecondAreKept() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (paths, output) = try toggleTakes("take-{time}.wav", takes: 5, in: folder)
        #expect(paths.count == 5, "\(output)")
        #expect(Set(paths).count == paths.count, "a name was used twice: \(paths)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".wav") }
        #expect(files.count == 5, "files \(files.sorted()) for takes \(paths)\n\(output)")
        for file in files { _ = try AudioFileContents.read(folder + "/" + file) }
        // A take whose name was taken says which name it got instead.
        if Set(paths.map { $0.prefix(11) }).count < 5 {
            #expect(output.contains("was written earlier in this run; this take is "), "\(output)")
        }
    }

    @Test("{n} numbers the takes of a run from 1")
    func takeCounter() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (paths, output) = try toggleTakes("take-{n}.wav", takes: 3, in: folder)
        #expect(paths == ["take-1.wav", "take-2.wav", "take-3.wav"], "\(output)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "take-1.wav", "take-2.wav", "take-3.wav",
            ])
    }
}
