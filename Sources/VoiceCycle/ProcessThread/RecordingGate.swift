import Synchronization

/// When the cycle feeds its recordings: always, or only while the driver freewheels
/// (`run --record-on-freewheel`) or its transport rolls (`run --record-on-transport`).
///
/// A gated set of recordings is one take: armed (files open, nothing written), open from the
/// first cycle the gate opens (each file's time reference stamped with that cycle's transport
/// frame), closed at the first cycle it shuts. A closed take gets nothing more, even when the
/// gate opens again: the control side finalises it and installs the next take's files
/// (`CycleHost.takeState`), so every freewheel run or transport roll has files of its own.
///
/// - Realtime: a plain value; `CycleState.recordingGate` carries it as its raw value.
public enum RecordingGate: Int, Sendable {
    case always = 0
    case freewheel = 1
    case transport = 2

    /// True when the gate with raw value `gate` feeds the recordings in a cycle like `io`.
    ///
    /// On raw values, because the process thread cannot use the enum itself: its synthesized
    /// `init(rawValue:)` and `==` are not visible to the @_noLocks checker.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    static func isOpen(_ gate: Int, _ io: CycleIO) -> Bool {
        if gate == 1 { return io.freewheeling }  // .freewheel
        if gate == 2 { return io.transport.rolling }  // .transport
        return true
    }
}

/// Where a gated take stands (`TapRoutes.take`, its raw value), as the process thread moves it on.
public enum TakeState: Int, Sendable {
    /// Files open, the gate has not opened yet.
    case armed = 0
    /// The gate opened; frames are being recorded.
    case open = 1
    /// The gate shut after it had opened: the take is complete.
    case closed = 2
}
