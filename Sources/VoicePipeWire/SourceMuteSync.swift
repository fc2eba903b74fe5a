import Foundation

/// Keeps voicerack's voice mute and the microphone node's own mute one and the same: a mute key
/// or a call app's mute button (`pactl set-source-mute voicerack-mic 1`) mutes voice_out, and
/// voicerack's mute (OSC, the panel, standard input) shows on the source, where the desktop
/// shows it.
///
/// Each side's change is seen as a difference from what was last made equal. A write to the
/// source takes a moment to come back in the graph; until it does (or `writeWait` passes), the
/// source's old state is not taken for a new change. When the node first appears (voicerack's
/// start, PipeWire back after a restart) a mute on either side mutes both: a microphone the user
/// closed is never opened.
///
/// - Realtime: never; main thread (pure: states in, one action out).
public struct SourceMuteSync {
    /// Neither side seen yet.
    public init() {}

    /// What to do to make the two mutes equal.
    public enum Action: Equatable {
        case none
        /// Mute (true) or open voice_out: the desktop changed the source's mute.
        case muteVoice(Bool)
        /// Mute (true) or unmute the source: voicerack's mute changed, or the node is new.
        case muteSource(Bool)
    }

    /// The source's mute when last made equal; nil while there is no node.
    private var sourceSeen: Bool?
    /// voicerack's mute when last made equal.
    private var voiceSeen = false
    /// A write to the source not seen back yet, and until when to wait for it.
    private var pending: (muted: Bool, until: Date)?
    /// How long (seconds) a write to the source may take to show in the graph.
    public static let writeWait = 3.0

    /// One look: the source's mute in the latest graph (nil: no such node, or not read yet) and
    /// voicerack's own.
    public mutating func step(source: Bool?, voice: Bool, now: Date) -> Action {
        guard let source else {
            sourceSeen = nil
            pending = nil
            return .none
        }
        if let write = pending {
            guard source == write.muted || now >= write.until else { return .none }
            pending = nil
            sourceSeen = source
        }
        guard let seen = sourceSeen else {
            let muted = source || voice
            sourceSeen = source
            voiceSeen = muted
            return source != muted ? writeSource(muted, now) : voice != muted ? .muteVoice(muted) : .none
        }
        if voice != voiceSeen {
            voiceSeen = voice
            return source != voice ? writeSource(voice, now) : .none
        }
        if source != seen {
            sourceSeen = source
            voiceSeen = source
            return voice != source ? .muteVoice(source) : .none
        }
        return .none
    }

    private mutating func writeSource(_ muted: Bool, _ now: Date) -> Action {
        pending = (muted, now.addingTimeInterval(Self.writeWait))
        return .muteSource(muted)
    }
}
