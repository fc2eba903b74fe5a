import VoiceControl

extension OSCReplies {
    /// `/voicerack/units`: each effect-chain unit's meters as NAME VALUE pairs, in chain order:
    /// `UNIT.peak_dbfs` (f, its output peak, -120 for silence) and `UNIT.reduction_db` (f, the
    /// gain a dynamics unit takes off, dB; N for a unit that takes none); nil without units.
    ///
    /// - Realtime: never; the OSC thread.
    static func units(_ s: LiveSnapshot) -> OSCMessage? {
        guard !s.units.isEmpty else { return nil }
        return OSCMessage(
            OSCAddressSpace.prefix + "/units",
            s.units.flatMap { u -> [OSCValue] in
                [
                    .string(u.unit + ".peak_dbfs"), .float(Float(max(-120, u.peak))),
                    .string(u.unit + ".reduction_db"), u.reductionDB.map { .float(Float($0)) } ?? .nil,
                ]
            })
    }
}
