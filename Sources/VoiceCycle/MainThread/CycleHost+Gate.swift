/// The recording gate and its takes, seen from the control side (see `RecordingGate`).
///
/// - Realtime: never; main thread.
extension CycleHost {
    /// Feeds the recordings only while `gate` is open, one take per opening; with
    /// `.freewheel`, a freewheel render also starts from a fresh engine (`freewheelChanged`).
    /// Set before the driver starts.
    public func setRecordingGate(_ gate: RecordingGate) {
        cycle.pointee.recordingGate.store(gate.rawValue, ordering: .relaxed)
        freshEngineOnFreewheel.store(gate == .freewheel, ordering: .relaxed)
    }

    /// The gate set by `setRecordingGate`.
    public var recordingGate: RecordingGate {
        RecordingGate(rawValue: cycle.pointee.recordingGate.load(ordering: .relaxed)) ?? .always
    }

    /// Where the installed recordings' take stands (always `.open` without a gate once fed).
    public var takeState: TakeState {
        // Acquire: pairs with the process thread's release, so `takeFrame` is valid when open.
        TakeState(rawValue: routes.pointee.take.load(ordering: .acquiring)) ?? .armed
    }

    /// The transport frame of the installed take's first frame (valid once it opened).
    public var takeFrame: Int { routes.pointee.takeFrame.load(ordering: .relaxed) }

    /// Freewheel cycles that gave up waiting for a stuck consumer (see `waitForConsumers`).
    public var freewheelWaitsAbandoned: Int { cycle.pointee.freewheelWaitsAbandoned.load(ordering: .relaxed) }
}
