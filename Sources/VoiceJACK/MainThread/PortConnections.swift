import CJack
import Glibc
import Synchronization
import VoiceCycle

/// The connections of a driver's ports, read before its server goes away and made again after
/// it came back (`--wait-for-server`): a concern of its own beside the driver.
///
/// - Realtime: never. Main thread.
public enum PortConnections {
    /// Every connection of `driver`'s eight ports now. Nothing when the server has shut down
    /// (the graph it reads is gone).
    public static func read(_ driver: JACKDriver) -> [PortConnection] {
        guard !driver.serverHasShutDown else { return [] }
        let jackClient = driver.jackClient, context = driver.context
        var result: [PortConnection] = []
        // PortSet.all is in PortLayout order: inputs, then outputs.
        let names = PortLayout.inputs + PortLayout.outputs
        for (index, port) in context.pointee.ports.all.enumerated() {
            for peer in JACKDriver.names(jack_port_get_all_connections(jackClient, port)) {
                result.append(
                    PortConnection(port: names[index], peer: peer, outgoing: index >= PortLayout.inputs.count))
            }
        }
        return result
    }

    /// Makes `connections` again on `driver` (after a server restart); returns a note per
    /// connection that could not be made (its peer is gone: a client that died with the server).
    /// Call after `start`.
    public static func restore(_ connections: [PortConnection], on driver: JACKDriver) -> [String] {
        var problems: [String] = []
        let jackClient = driver.jackClient
        for c in connections {
            let own = "\(driver.clientName):\(c.port)"
            let (source, destination) = c.outgoing ? (own, c.peer) : (c.peer, own)
            let result = jack_connect(jackClient, source, destination)
            if result != 0, result != EEXIST {
                problems.append(
                    "could not restore \(source) -> \(destination) (error \(result); gone with the server?)")
            }
        }
        return problems
    }
}

/// libjack's own messages: routed into voicerack's log (`route`), and silenced around calls
/// expected to fail: `--wait-for-server` tries to open a client every 0.5 s while no server runs
/// (jackd2's libjack prints four lines, "Cannot connect to server socket", ..., for each try), and
/// leaving a dead server prints "Server is not running" ten times.
///
/// - Realtime: never. Main thread (libjack's error and info functions are process-wide); the
///   sink is called on whichever thread libjack reports from.
public enum JACKMessages {
    /// Sends libjack's error and info messages to `sink` from now on (voicerack logs them at
    /// debug level: its own message says what a failure means), instead of standard error.
    public static func route(to sink: @escaping @Sendable (String) -> Void) {
        jackMessageSink.withLock { $0 = sink }
        jack_set_error_function(deliverJACKMessage)
        jack_set_info_function(deliverJACKMessage)
    }

    /// Runs `body` with libjack's error messages dropped, then delivers them again.
    public static func silenced<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        jack_set_error_function(dropJACKMessage)
        defer { jack_set_error_function(deliverJACKMessage) }
        return try body()
    }
}

/// Where libjack's messages go once routed; nil: to standard error, as libjack's default does.
private let jackMessageSink = Mutex<(@Sendable (String) -> Void)?>(nil)

/// Drops one of libjack's error messages.
private func dropJACKMessage(_ message: UnsafePointer<CChar>?) {}

/// Delivers one of libjack's messages to the sink, or prints it to standard error.
private func deliverJACKMessage(_ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    let text = String(cString: message)
    if let sink = jackMessageSink.withLock({ $0 }) { return sink(text) }
    // write(2) on descriptor 2: no shared FILE to reach from Swift 6's strict concurrency.
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
