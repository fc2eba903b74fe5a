import Foundation
import Testing
import VoiceTestSupport

/// Fuzz: the shipped presets mutated (byte flips, dropped and repeated lines, values swapped
/// between keys) through `voicerack presets check`. Every input must end in 0 or 65, never a
/// crash or a hang.
@Suite("fuzz: mutated presets through presets check")
struct PresetFuzzTests {
    static var presetsDirectory: String {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("presets").path
    }

    @Test("mutated presets end in 0 or 65")
    func mutatedPresets() throws {
        let folder = try TemporaryFolder()
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.presetsDirectory)
            .filter { $0.hasSuffix(".toml") }.sorted()
            .map { try String(contentsOfFile: Self.presetsDirectory + "/" + $0, encoding: .utf8) }
        var random = SeededRandom(seed: Mutate.seed)
        var tally = FuzzTally("mutated presets")
        // Several files per invocation: one process start per 10 inputs.
        let count = FuzzTally.budget(300)
        var index = 0
        while index < count {
            let batch = min(10, count - index)
            var files: [String] = []
            for i in 0..<batch {
                let file = folder.file("m\(index + i).toml")
                try PresetMutation.mutated(sources.randomElement(using: &random)!, &random).write(
                    toFile: file, atomically: false, encoding: .utf8)
                files.append(file)
            }
            let r = try Mutate.voicerack(["presets", "check"] + files)
            for file in files {
                let clean = FuzzTally.isClean(status: r.status, signaled: r.signaled) && r.status != 124
                let failedHere = r.standardError.contains(file + ":") || r.standardError.contains(file + " ")
                let ok = r.standardOutput.contains(file + ": ok")
                tally.record(
                    status: clean ? (ok ? 0 : failedHere ? 65 : 70) : r.status, signaled: r.signaled,
                    input: "\(file): \((try? String(contentsOfFile: file, encoding: .utf8))?.prefix(300) ?? "")")
            }
            index += batch
        }
        print(tally.summary)
        #expect(tally.crashes.isEmpty, "\(tally.crashes.prefix(3))")
        #expect(tally.tried == count)
    }

}
