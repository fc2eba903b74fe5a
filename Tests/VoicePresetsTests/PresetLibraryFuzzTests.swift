import Foundation
import Testing
import VoiceTestSupport

@testable import VoicePresets

/// Fuzz: mutated shipped presets through the library in this process (a crash would end the
/// test run): each loads or throws a PresetError naming the file.
@Suite struct PresetLibraryFuzzTests {
    @Test func mutatedPresetsLoadOrThrow() throws {
        let temporary = try TemporaryPresets()
        let shipped = shippedPresetsDirectory()
        let sources = try FileManager.default.contentsOfDirectory(atPath: shipped).filter { $0.hasSuffix(".toml") }
            .sorted()
            .map { try String(contentsOfFile: shipped + "/" + $0, encoding: .utf8) }
        let seed = UInt64(ProcessInfo.processInfo.environment["VOICERACK_FUZZ_SEED"] ?? "") ?? 7
        var random = SeededRandom(seed: seed)
        var tally = FuzzTally("mutated presets in the library")
        for i in 0..<FuzzTally.budget(2_000) {
            let path = try temporary.write(
                "m\(i % 50)", PresetMutation.mutated(sources.randomElement(using: &random)!, &random))
            do {
                _ = try temporary.library.check(path)
                tally.record(status: 0, signaled: false, input: path)
            } catch {
                // A clean error names the file it is about (this one or a base it names).
                tally.record(
                    status: error.file.isEmpty || error.message.isEmpty ? 70 : 65, signaled: false,
                    input: "\(path): \(error)")
            }
        }
        print(tally.summary)
        #expect(tally.crashes.isEmpty, "\(tally.crashes.prefix(3))")
    }
}
