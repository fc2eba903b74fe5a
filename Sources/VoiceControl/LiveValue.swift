/// The value of a `set` as the surface had it: a number or a switch when the surface's message
/// is typed (OSC's `f`, `i`, `d`, `T`, `F`), or a word as typed (`--control` lines, OSC strings,
/// the panel), which the key's own type reads once when the command runs.
///
/// - Realtime: never; any thread.
public enum LiveValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringLiteral
{
    case number(Double)
    case boolean(Bool)
    /// A word as typed: `-6`, `processed`, `"a name"`, `eq, compressor`.
    case word(String)

    public init(stringLiteral value: String) { self = .word(value) }

    /// As it is shown in replies: `-18`, `0.1`, `true`, the word itself.
    public var description: String {
        switch self {
        case .number(let v):
            if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
            // A value that came as a 32-bit float reads back as the float it was (0.1, not 0.100000001).
            return Double(Float(v)) == v ? Float(v).description : v.description
        case .boolean(let b): return b ? "true" : "false"
        case .word(let w): return w
        }
    }

    /// As the session's log shows a command (`set(key: "output.gain_db", value: "-6")`).
    public var debugDescription: String { "\"\(description)\"" }
}
