import CJack
import Glibc
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

/// libjack's own error messages, silenced around calls expected to fail: `--wait-for-server`
/// tries to open a client every 0.5 s while no server runs (jackd2's libjack prints four lines,
/// "Cannot connect to server socket", ..., for each try), and leaving a dead server prints
/// "Server is not running" ten times.
///
/// - Realtime: never. Main thread (libjack's error function is process-wide).
public enum JACKMessages {
    /// Runs `body` with libjack's error messages dropped, then restores printing them.
    public static func silenced<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        jack_set_error_function(dropJACKMessage)
        defer { jack_set_error_function(printJACKMessage) }
        return try body()
    }
}

/// Drops one of libjack's error messages.
private func dropJACKMessage(_ message: UnsafePointer<CChar>?) {}

/// Prints one of libjack's error messages to standard error, as libjack's default does.
private func printJACKMessage(_ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    // write(2) on descriptor 2: no shared FILE to reach from Swift 6's strict concurrency.
    let line = String(cString: message) + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
