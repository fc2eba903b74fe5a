/// A password that cannot be printed: its description, debug description and reflection show
/// `***`, so string interpolation, `print`, `dump` and logging never reveal it.
///
/// - Realtime: never.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password itself: only for handing to libshout.
    package let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "***" }
    public var debugDescription: String { "***" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
