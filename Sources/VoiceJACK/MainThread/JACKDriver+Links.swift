import CJack
import Glibc

/// Links between any two ports of the graph, by full names, for a main-thread linker that keeps
/// voicerack's links to other clients (`--pipewire`): the driver knows JACK, the linker knows
/// which ports to join.
///
/// - Realtime: never. Main thread, after `start`.
extension JACKDriver {
    /// How many ports came or went in the graph since the client started; it moves when a
    /// server's devices (re)appear.
    public var portRegistrations: Int { context.pointee.portRegistrations.load(ordering: .relaxed) }

    /// True when a port of that full name exists now.
    public func hasPort(_ name: String) -> Bool { jack_port_by_name(jackClient, name) != nil }

    /// The full names of the ports connected to `name` (a full port name).
    public func peers(of name: String) -> [String] {
        guard let port = jack_port_by_name(jackClient, name) else { return [] }
        return Self.names(jack_port_get_all_connections(jackClient, port))
    }

    /// The port names in a NULL-terminated list that libjack allocated, which it then frees.
    static func names(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let name = list[i] {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }

    /// Connects `source` to `destination`; 0 when they are connected now (EEXIST: they were).
    public func link(_ source: String, _ destination: String) -> Int32 {
        let result = jack_connect(jackClient, source, destination)
        return result == EEXIST ? 0 : result
    }

    /// Disconnects `source` from `destination`; 0 when done.
    @discardableResult
    public func unlink(_ source: String, _ destination: String) -> Int32 {
        jack_disconnect(jackClient, source, destination)
    }
}
