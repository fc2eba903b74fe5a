import CJack
import Glibc

/// One connection of one of voicerack's ports, by port names: the own port by its short name
/// (`mic_in`), so it still names the right port when a new client gets another name.
public struct PortConnection: Sendable, Equatable {
    /// voicerack's port, e.g. `mic_in`.
    public let port: String
    /// The other end's full name, e.g. `system:capture_1`.
    public let peer: String
    /// True when voicerack's port is the output (the source of the connection).
    public let outgoing: Bool
}

extension JACKDriver {
    /// Every connection of voicerack's eight ports now, for `restore` after a server restart
    /// (`--wait-for-server`). Nothing when the server has shut down (the graph it reads is gone).
    ///
    /// - Realtime: never. Main thread.
    public func connections() -> [PortConnection] {
        guard !serverHasShutDown else { return [] }
        var result: [PortConnection] = []
        // PortSet.all is in PortLayout order: inputs, then outputs.
        let names = PortLayout.inputs + PortLayout.outputs
        for (index, port) in context.pointee.ports.all.enumerated() {
            guard let list = jack_port_get_all_connections(jackClient, port) else { continue }
            defer { jack_free(list) }
            var i = 0
            while let peer = list[i] {
                result.append(
                    PortConnection(
                        port: names[index], peer: String(cString: peer), outgoing: index >= PortLayout.inputs.count))
                i += 1
            }
        }
        return result
    }

    /// Makes `connections` again (after a server restart); returns a note per connection that
    /// could not be made (its peer is gone: a client that died with the server).
    ///
    /// - Realtime: never. Main thread, after `start`.
    public func restore(_ connections: [PortConnection]) -> [String] {
        var problems: [String] = []
        for c in connections {
            let own = "\(clientName):\(c.port)"
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

extension JACKDriver {
    /// Opens a client as `init(options:)` does, with libjack's error messages silenced meanwhile:
    /// `--wait-for-server` tries every 0.5 s while no server runs, and jackd2's libjack would
    /// print four lines ("Cannot connect to server socket", ...) for each try.
    ///
    /// - Realtime: never. Main thread (libjack's error function is process-wide).
    public static func openQuietly(options: Options) throws(JACKError) -> JACKDriver {
        jack_set_error_function(dropJACKMessage)
        defer { jack_set_error_function(printJACKMessage) }
        return try JACKDriver(options: options)
    }

    /// `close(timeout:)` with libjack's error messages silenced: after the server died, jackd2's
    /// libjack prints "Server is not running" for each call that leaving makes (ten lines).
    ///
    /// - Realtime: never. Main thread.
    @discardableResult
    public func closeQuietly(timeout: Double = 5) -> Bool {
        jack_set_error_function(dropJACKMessage)
        defer { jack_set_error_function(printJACKMessage) }
        return close(timeout: timeout)
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
