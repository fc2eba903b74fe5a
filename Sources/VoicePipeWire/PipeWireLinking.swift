import Foundation

/// What `--pipewire` keeps between ticks: the graph's watch and the desktop's command queue, the
/// links voicerack made, the mute kept equal with the microphone node's, and what it last said,
/// so that each change is logged once.
///
/// - Realtime: never; main thread.
public struct PipeWireLinking {
    /// Nothing linked, watched or said yet.
    public init() {}

    /// Follows the graph off the main thread (nil until the start, and on plain jackd).
    public var watch: PipeWireWatch?
    /// Mutes, defaults and notifications, sent off the main thread.
    public var commands: DesktopCommands?
    /// The links made on the current client (those to take back when their device stops being
    /// the one to use, e.g. when a headset becomes the default sink).
    public var made: Set<PipeWireLink> = []
    /// Links voicerack made that the user took away while their ports stayed: not made again
    /// until a port of theirs goes and comes back.
    public var declined: Set<PipeWireLink> = []
    /// The driver's port-registration count when the links were last made.
    public var linkedRegistrations = -1
    /// The client they were made on: a new client after a server restart starts with none.
    public var client: ObjectIdentifier?
    /// The driver's port-registration count and the watch's graph count when last seen; a
    /// change brings the next look forward.
    public var seenRegistrations = -1
    public var seenGeneration = -1
    /// When to look at the graph next.
    public var nextCheck = Date.distantPast
    /// The last notes of links with no port yet, and the last reading error, logged on change.
    public var lastMissing: [String] = []
    public var lastError: String?
    /// Nodes already made the defaults (`--make-default`), by PipeWire id: once per node, so a
    /// default the user picks afterwards stays. Emptied when PipeWire restarted (a new pw-dump run).
    public var defaultsMade: Set<Int> = []
    /// True when no PipeWire graph could be read at the start (plain jackd): voicerack then
    /// auto-connects as without `--pipewire`, and never reads the graph again.
    public var plainJACK = false
    /// True once the start's links (or the auto-connection instead) were made.
    public var started = false
    /// WirePlumber coming and going (restarted alone), and what voicerack said of it.
    public var wirePlumber = WirePlumberRestart()
    /// voice_out's mute and the microphone node's, kept equal, since pw-dump run `muteRun`.
    public var mute = SourceMuteSync()
    public var muteRun = 0
    /// When the last muted-talker notification was sent, and whether one was tried (only the
    /// first failure is logged).
    public var lastNotice: Date?
    /// Since when the talker has been talking into the mute without a pause (nil: not now).
    public var talkingSince: Date?
    public var noticeTried = false

    /// How soon after ports came or went the links are looked at: they come in bursts (a
    /// device's channels, a whole server), and one look after the burst makes every link.
    public static let settle = 0.2
    /// How often the links are looked at with no change seen.
    public static let interval = 2.0
    /// Seconds of talking into the mute on end before the notification goes out (the detector
    /// raises its event after 150 ms of voice).
    public static let noticeAfter = 1.5
    /// At most one muted-talker notification in this many seconds.
    public static let noticeInterval = 60.0
}
