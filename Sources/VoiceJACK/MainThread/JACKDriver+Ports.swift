import CJack
import Foundation

extension JACKDriver {
    /// Registers the eight ports of `PortLayout`. - Realtime: never.
    static func registerPorts(_ client: OpaquePointer, server: String) throws(JACKError) -> PortSet {
        func register(_ name: String, _ flags: JackPortFlags) throws(JACKError) -> OpaquePointer {
            guard let port = jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue), 0) else {
                throw JACKError("cannot register port '\(name)' on JACK server '\(server)'")
            }
            return port
        }
        let i = PortLayout.inputs, o = PortLayout.outputs
        return PortSet(
            mic: try register(i[0], JackPortIsInput), farLeft: try register(i[1], JackPortIsInput),
            farRight: try register(i[2], JackPortIsInput), voice: try register(o[0], JackPortIsOutput),
            speakerLeft: try register(o[1], JackPortIsOutput), speakerRight: try register(o[2], JackPortIsOutput),
            monitorLeft: try register(o[3], JackPortIsOutput), monitorRight: try register(o[4], JackPortIsOutput))
    }

    /// JACK_METADATA_PRETTY_NAME and JACK_METADATA_ORDER; the C globals are mutable `const char *`s,
    /// which Swift 6 refuses to read without isolation.
    static let prettyNameKey = "http://jackaudio.org/metadata/pretty-name"
    static let orderKey = "http://jackaudio.org/metadata/order"
    static let integerType = "http://www.w3.org/2001/XMLSchema#integer"

    /// Labels the ports: a pretty-name and a port order, so patchbays show readable names in a
    /// stable order. jackd2 reuses port ids, so whatever a killed earlier run left on these ids
    /// is removed first. Servers without metadata support ignore it all. - Realtime: never.
    func labelPorts() {
        let ports = context.pointee.ports.all
        for (index, (port, name)) in zip(ports, PortLayout.inputs + PortLayout.outputs).enumerated() {
            let uuid = jack_port_uuid(port)
            _ = jack_remove_properties(jackClient, uuid)
            if let pretty = PortLayout.prettyNames[name] {
                _ = jack_set_property(jackClient, uuid, Self.prettyNameKey, pretty, nil)
            }
            _ = jack_set_property(jackClient, uuid, Self.orderKey, String(index + 1), Self.integerType)
        }
    }

    /// Removes every property of the ports, so no other program's port inherits our labels when
    /// the server reuses the ids. - Realtime: never.
    func unlabelPorts() {
        for port in context.pointee.ports.all { _ = jack_remove_properties(jackClient, jack_port_uuid(port)) }
    }
}
