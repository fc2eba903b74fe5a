/// The recording gate's take (see `RecordingGate`): which cycles a gated set records.
///
/// - Realtime: `admit` and `haveRoom` are safe; process thread, while it holds the set's token.
extension TapRoutes {
    /// Whether this cycle goes to the recordings under the gate with raw value `gate`
    /// (`RecordingGate`), and how many frames of silence go before it (nil: not recorded).
    ///
    /// Moves the take on: armed → open at the first cycle the gate is open (stamping every file's
    /// time reference with the cycle's transport frame), open → closed at the first cycle it is
    /// shut. A closed take records nothing more.
    ///
    /// The silence stands for cycles the server ran without this client (`io.framesMissed`).
    /// Ungated, all of them. In a transport take, only as many as the transport rolled through
    /// meanwhile, so a take lasts exactly as long as its roll and the next roll starts where it
    /// ended. This includes the frames it rolled just before it stopped. PipeWire's JACK, under
    /// load, was seen to move its transport by one period less, and one period more, than the
    /// frame time across skipped cycles. A take's first cycle gets none: the file starts at the
    /// frame it is stamped with. - Realtime: safe.
    @inline(__always) @_noLocks
    func admit(_ io: CycleIO, gate: Int) -> Int? {
        guard gate != 0 else { return io.framesMissed }  // .always
        let open = RecordingGate.isOpen(gate, io)
        // TakeState raw values: 0 armed, 1 open, 2 closed.
        let state = take.load(ordering: .relaxed)
        if state == 0 {
            guard open else { return nil }
            for k in 0..<count { inputs[k].stampTimeReference(io.transport.frame) }
            takeFrame.store(io.transport.frame, ordering: .relaxed)
            nextTransportFrame.store(io.transport.frame &+ io.frames, ordering: .relaxed)
            // Release: the frame is visible to whoever sees the take open.
            take.store(1, ordering: .releasing)
            return 0
        }
        guard state == 1 else { return nil }
        let gap = gate == 2 ? transportGap(io) : io.framesMissed  // 2: .transport
        if open {
            nextTransportFrame.store(io.transport.frame &+ io.frames, ordering: .relaxed)
            return gap
        }
        // The roll ended: the frames it rolled through unseen still belong to this take.
        if gap > 0 {
            for k in 0..<count { inputs[k].skip(gap) }
        }
        take.store(2, ordering: .releasing)
        return nil
    }

    /// The frames the transport rolled through in cycles this client missed: its advance past
    /// where the take's last cycle ended, at most the frames missed (a jump with no missed cycle
    /// is a relocation, not time that passed). - Realtime: safe.
    @inline(__always) @_noLocks
    private func transportGap(_ io: CycleIO) -> Int {
        let advance = io.transport.frame &- nextTransportFrame.load(ordering: .relaxed)
        return max(0, min(advance, io.framesMissed))
    }

    /// True when every recording can take `frames` frames now without loss (or need not: it
    /// ended or failed). Only the freewheel wait asks. - Realtime: safe.
    @inline(__always) @_noLocks
    func haveRoom(for frames: Int) -> Bool {
        for k in 0..<count where !inputs[k].hasRoom(for: frames) { return false }
        return true
    }
}
