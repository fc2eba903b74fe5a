/// What an echo removal figure means to a listener: the one verdict rule the status line, the
/// exit summaries, OSC and the panel all say.
///
/// ERLE measured where the far end talks alone: from 35 dB the echo is hard to hear, from 20 dB
/// it is faint, below that it is clearly audible.
///
/// - Realtime: never; any thread (a plain value).
public enum EchoVerdict: String, Sendable, CaseIterable {
    case good, fair, poor

    /// The lowest echo removal, dB, of `good` and of `fair`.
    public static let goodFromDB = 35.0
    public static let fairFromDB = 20.0

    /// The verdict on `db` of echo removed.
    public init(removedDB db: Double) {
        self = db >= Self.goodFromDB ? .good : db >= Self.fairFromDB ? .fair : .poor
    }

    /// The verdict with what to do about it: `good`, `fair: faint echo may be heard`, ...
    public var advice: String {
        switch self {
        case .good: "good"
        case .fair: "fair: faint echo may be heard"
        case .poor: "poor: echo audible, check the delay and speaker level"
        }
    }

    /// What a surface says before there is a figure: `measuring` while the far end plays (the
    /// engine measures over stretches of far end alone), `far end silent` when it has played
    /// before (`farHeard`), else `no far end yet`.
    public static func waiting(farActive: Bool, farHeard: Bool = false) -> String {
        farActive ? "measuring" : farHeard ? "far end silent" : "no far end yet"
    }

    /// The verdict words for `snapshot`: the advice once measured, else what it waits for.
    public static func words(_ snapshot: LiveSnapshot, farHeard: Bool = false) -> String {
        snapshot.echoRemovalDB.map { EchoVerdict(removedDB: $0).advice }
            ?? waiting(farActive: snapshot.farActive, farHeard: farHeard)
    }
}
