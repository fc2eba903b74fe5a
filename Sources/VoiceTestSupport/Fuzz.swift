import Foundation

/// Bookkeeping for the fuzz tests: how many inputs each tried, how many ended cleanly (exit 0 or
/// a sysexits code, 64–78) and which crashed (a signal, or any other exit code), hung (a
/// connection left open past its bound) or disclosed a secret (a password or a file's contents
/// in an error).
///
/// The normal suite runs a few hundred inputs per fuzzer (seconds); `VOICERACK_FUZZ_INPUTS=N`
/// (set by scripts/fuzz.sh) runs N instead. Each fuzzer prints one `fuzz NAME: ...` totals line.
public struct FuzzTally: Sendable {
    public let name: String
    public private(set) var tried = 0
    /// Inputs answered with exit 0 (or, by a long-running process, answered at all).
    public private(set) var accepted = 0
    /// Inputs refused with a sysexits code.
    public private(set) var cleanErrors = 0
    /// A line per crash: the input and how the process ended.
    public private(set) var crashes: [String] = []
    /// A line per hang: the input and what stayed open.
    public private(set) var hangs: [String] = []
    /// A line per disclosure: the input and what it disclosed.
    public private(set) var disclosures: [String] = []

    /// How one input ended, for the in-process fuzzers that judge it themselves.
    public enum Outcome: Sendable {
        /// Accepted, or answered by a server.
        case accepted
        /// Refused with a clean error (or a server's refusal, or a close).
        case cleanError
        case crash(String)
        case hang(String)
        case disclosure(String)
    }

    public init(_ name: String) { self.name = name }

    /// Inputs to try: `VOICERACK_FUZZ_INPUTS` when set, else `normal`.
    public static func budget(_ normal: Int) -> Int {
        ProcessInfo.processInfo.environment["VOICERACK_FUZZ_INPUTS"].flatMap(Int.init) ?? normal
    }

    /// True for an exit that is no crash: 0 or a sysexits code (64 usage ... 78 config).
    public static func isClean(status: Int32, signaled: Bool) -> Bool {
        !signaled && (status == 0 || (64...78).contains(status))
    }

    /// Counts one input that ended with `status`; `input` describes it for the crash list.
    public mutating func record(status: Int32, signaled: Bool, input: @autoclosure () -> String) {
        tried += 1
        if !Self.isClean(status: status, signaled: signaled) {
            crashes.append("\(input()): \(signaled ? "signal" : "exit") \(status)")
        } else if status == 0 {
            accepted += 1
        } else {
            cleanErrors += 1
        }
    }

    /// Counts one input a long-running process answered without dying.
    public mutating func recordAnswered(clean: Bool, input: @autoclosure () -> String) {
        tried += 1
        if clean { accepted += 1 } else { crashes.append(input()) }
    }

    /// Counts one input that ended as `outcome`.
    public mutating func record(_ outcome: Outcome) {
        tried += 1
        switch outcome {
        case .accepted: accepted += 1
        case .cleanError: cleanErrors += 1
        case .crash(let line): crashes.append(line)
        case .hang(let line): hangs.append(line)
        case .disclosure(let line): disclosures.append(line)
        }
    }

    /// Every crash, hang and disclosure line; empty when the fuzzer found nothing.
    public var failures: [String] { crashes + hangs + disclosures }

    /// `fuzz NAME: T inputs, A accepted or answered, E clean errors, C crashes, H hangs, D disclosures`.
    public var summary: String {
        "fuzz \(name): \(tried) inputs, \(accepted) accepted or answered, \(cleanErrors) clean errors, "
            + "\(crashes.count) crashes, \(hangs.count) hangs, \(disclosures.count) disclosures"
    }

    /// The seed for a fuzzer's random numbers: `VOICERACK_FUZZ_SEED` when set, else `normal`.
    public static func seed(_ normal: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["VOICERACK_FUZZ_SEED"].flatMap(UInt64.init) ?? normal
    }
}

/// Byte-level mutations for fuzz inputs.
public enum ByteMutation {
    /// `bytes` with 1–4 bytes in `range` (clamped to the data) set to random values.
    public static func flipBytes(_ bytes: [UInt8], in range: Range<Int>, _ random: inout SeededRandom) -> [UInt8] {
        var out = bytes
        let upper = min(range.upperBound, out.count)
        guard upper > range.lowerBound else { return out }
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            out[Int.random(in: range.lowerBound..<upper, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        return out
    }

    /// `bytes` changed once: bytes flipped, a range dropped or repeated, or one of `fragments`
    /// (the hostile pieces of the format at hand) inserted or put in place of a range.
    public static func mutated(_ bytes: [UInt8], fragments: [[UInt8]], _ random: inout SeededRandom) -> [UInt8] {
        var out = bytes
        let a = Int.random(in: 0...out.count, using: &random)
        let b = min(out.count, a + Int.random(in: 0...16, using: &random))
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return flipBytes(out, in: 0..<out.count, &random)
        case 1: out.removeSubrange(a..<b)
        case 2: out.insert(contentsOf: out[a..<b], at: b)
        case 3: out.insert(contentsOf: fragments.randomElement(using: &random) ?? [], at: a)
        default: out.replaceSubrange(a..<b, with: fragments.randomElement(using: &random) ?? [])
        }
        return out
    }

    /// `text` through 1–`most` rounds of `mutated`, or unchanged one time in `keep` (when given),
    /// so that the valid forms are tried too.
    public static func mutated(
        _ text: String, rounds most: Int, fragments: [[UInt8]], keepingOneIn keep: Int? = nil,
        _ random: inout SeededRandom
    ) -> String {
        if let keep, Int.random(in: 0..<keep, using: &random) == 0 { return text }
        return String(decoding: mutated(Array(text.utf8), rounds: most, fragments: fragments, &random), as: UTF8.self)
    }

    /// `bytes` through 1–`most` rounds of `mutated`.
    public static func mutated(
        _ bytes: [UInt8], rounds most: Int, fragments: [[UInt8]], _ random: inout SeededRandom
    ) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...most, using: &random) { out = mutated(out, fragments: fragments, &random) }
        return out
    }
}

/// Mutations of a preset's text: byte flips, dropped and repeated lines, values swapped between
/// keys, values replaced by extremes.
public enum PresetMutation {
    public static func mutated(_ text: String, _ random: inout SeededRandom) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:  // byte flips anywhere
            let bytes = Array(text.utf8)
            return String(decoding: ByteMutation.flipBytes(bytes, in: 0..<bytes.count, &random), as: UTF8.self)
        case 1:  // drop lines
            for _ in 0..<Int.random(in: 1...3, using: &random) where !lines.isEmpty {
                lines.remove(at: Int.random(in: 0..<lines.count, using: &random))
            }
        case 2:  // repeat a line (duplicate keys and sections)
            if let line = lines.randomElement(using: &random) {
                lines.insert(line, at: Int.random(in: 0...lines.count, using: &random))
            }
        case 3:  // swap the values of two `key = value` lines
            let entries = lines.indices.filter { lines[$0].contains(" = ") && !lines[$0].hasPrefix("#") }
            if entries.count >= 2 {
                let a = entries.randomElement(using: &random)!
                let b = entries.randomElement(using: &random)!
                let va = lines[a].components(separatedBy: " = ")
                let vb = lines[b].components(separatedBy: " = ")
                lines[a] = va[0] + " = " + vb.dropFirst().joined(separator: " = ")
                lines[b] = vb[0] + " = " + va.dropFirst().joined(separator: " = ")
            }
        default:  // a value replaced by an extreme
            let entries = lines.indices.filter { lines[$0].contains(" = ") && !lines[$0].hasPrefix("#") }
            if let i = entries.randomElement(using: &random) {
                let extreme = ["1e309", "-0", "nan", "\"\"", "9223372036854775808", "\"\\u0000\"", "0.1", "[]", "'"]
                lines[i] = lines[i].components(separatedBy: " = ")[0] + " = " + extreme.randomElement(using: &random)!
            }
        }
        return lines.joined(separator: "\n")
    }

}
