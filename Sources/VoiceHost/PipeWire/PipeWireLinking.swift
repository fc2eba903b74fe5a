import Foundation

/// What `--pipewire` keeps between ticks: the links voicerack made, when to look at the graph
/// next, and what it last said, so that each change is logged once.
///
/// - Realtime: never; main thread.
struct PipeWireLinking {
    /// The links made on the current client (those to take back when their device stops being
    /// the one to use, e.g. when a headset becomes the default sink).
    var made: Set<PipeWireLink> = []
    /// The client they were made on: a new client after a server restart starts with none.
    var client: ObjectIdentifier?
    /// The driver's port-registration count when last seen; a change brings the next look forward.
    var seenRegistrations = -1
    /// When to read the graph next.
    var nextCheck = Date.distantPast
    /// The last notes of links with no port yet, and the last reading error, logged on change.
    var lastMissing: [String] = []
    var lastError: String?
    /// Nodes already made the defaults (`--make-default`), by PipeWire id: once per node, so a
    /// default the user picks afterwards stays.
    var defaultsMade: Set<Int> = []
    /// True when no PipeWire graph could be read at the start (plain jackd): voicerack then
    /// auto-connects as without `--pipewire`, and never reads the graph again.
    var plainJACK = false

    /// How soon after ports came or went the graph is read: they come in bursts (a device's
    /// channels, a whole server), and one look after the burst makes every link.
    static let settle = 0.2
    /// How often the graph is read with no port change: a new default device changes no port.
    static let interval = 2.0
}
