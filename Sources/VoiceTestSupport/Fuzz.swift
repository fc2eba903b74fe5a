import Foundation

/// Bookkeeping for the fuzz tests: how many inputs each tried, how many ended cleanly (exit 0 or
/// a sysexits code, 64–78) and which crashed (a signal, or any other exit code).
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

    /// `fuzz NAME: T inputs, A accepted or answered, E clean errors, C crashes`.
    public var summary: String {
        "fuzz \(name): \(tried) inputs, \(accepted) accepted or answered, \(cleanErrors) clean errors, \(crashes.count) crashes"
    }
}
