import Foundation
import VoiceTestSupport

/// Mutations for the fuzz tests, driven by a seeded generator so a failure can be replayed
/// (`VOICERACK_FUZZ_SEED`).
enum Mutate {
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["VOICERACK_FUZZ_SEED"] ?? "") ?? 20_261_123 }

    /// Runs `voicerack ARGS` under `timeout` (a hang counts as a crash: exit 124).
    static func voicerack(_ arguments: [String], seconds: Int = 60) throws -> CommandRunner.Result {
        try CommandRunner.run("/usr/bin/timeout", ["-s", "KILL", "\(seconds)", CommandRunner.voicerack] + arguments)
    }

    /// `bytes` with a little-endian 32-bit field at a random offset in `range` set to an extreme.
    static func extremeField(_ bytes: [UInt8], in range: Range<Int>, _ random: inout SeededRandom) -> [UInt8] {
        var out = bytes
        let upper = min(range.upperBound, out.count) - 4
        guard upper > range.lowerBound else { return out }
        let at = Int.random(in: range.lowerBound..<upper, using: &random)
        let value = [UInt32(0), 1, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x8000_0000, 0xFFFF].randomElement(using: &random)!
        for i in 0..<4 { out[at + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) }
        return out
    }
}
