/// The recording gate's take (see `RecordingGate`): which cycles a gated set records.
///
/// - Realtime: `admit` and `haveRoom` are safe; process thread, while it holds the set's token.
extension TapRoutes {
    /// True when this cycle goes to the recordings under the gate with raw value `gate` (`RecordingGate`); moves the take on: armed → open
    /// at the first cycle the gate is open (stamping every file's time reference with the
    /// cycle's transport frame), open → closed at the first cycle it is shut. A closed take
    /// records nothing more. - Realtime: safe.
    @inline(__always) @_noLocks
    func admit(_ io: CycleIO, gate: Int) -> Bool {
        guard gate != 0 else { return true }  // .always
        let open = RecordingGate.isOpen(gate, io)
        // TakeState raw values: 0 armed, 1 open, 2 closed.
        let state = take.load(ordering: .relaxed)
        if state == 0 {
            guard open else { return false }
            for k in 0..<count { inputs[k].stampTimeReference(io.transport.frame) }
            takeFrame.store(io.transport.frame, ordering: .relaxed)
            // Release: the frame is visible to whoever sees the take open.
            take.store(1, ordering: .releasing)
            return true
        }
        if state == 1 {
            if open { return true }
            take.store(2, ordering: .releasing)
        }
        return false
    }

    /// True when every recording can take `frames` frames now without loss (or need not: it
    /// ended or failed). Only the freewheel wait asks. - Realtime: safe.
    @inline(__always) @_noLocks
    func haveRoom(for frames: Int) -> Bool {
        for k in 0..<count where !inputs[k].hasRoom(for: frames) { return false }
        return true
    }
}
