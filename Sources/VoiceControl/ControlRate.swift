/// A budget of commands per second for one control surface: a token bucket that holds at most
/// one second's worth, refilled continuously.
///
/// A flood from one surface (a script on the panel's socket, a looping OSC sender) is answered
/// at once beyond the budget instead of reaching the main thread, so no surface can keep the
/// session, and through it the process thread's CPU, busy with control traffic. A person at a
/// fader or a slider stays well inside it.
///
/// - Realtime: never; `ControlHub` keeps one per surface under its lock.
public struct ControlRate: Sendable {
    /// Commands admitted per second, and at most at once after a quiet spell.
    public let perSecond: Int
    private var tokens: Double
    private var refilled: Double?

    public init(perSecond: Int) {
        self.perSecond = perSecond
        tokens = Double(perSecond)
    }

    /// True when one more command fits the budget at `now` (seconds on a monotonic clock), and
    /// takes it.
    public mutating func admit(at now: Double) -> Bool {
        if let refilled, now > refilled {
            tokens = min(Double(perSecond), tokens + (now - refilled) * Double(perSecond))
        }
        refilled = max(refilled ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// The refusal sent back for a command beyond the budget.
    public var refusal: String { "too many requests: at most \(perSecond) per second; wait for the answers" }
}
