import VoiceCycle

/// The JACK driver as a live session's driver (`LiveDriver`): the members not written out in
/// the driver's other files.
///
/// - Realtime: never; main thread.
extension JACKDriver: LiveDriver {
    public func connections() -> [PortConnection] { PortConnections.read(self) }

    public func restore(_ connections: [PortConnection]) -> [String] {
        PortConnections.restore(connections, on: self)
    }

    /// Leaving a dead server makes libjack print "Server is not running" ten times: silenced.
    @discardableResult
    public func closeAfterServerLoss(timeout: Double) -> Bool {
        JACKMessages.silenced { close(timeout: timeout) }
    }
}
