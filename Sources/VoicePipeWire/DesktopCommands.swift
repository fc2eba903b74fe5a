import Foundation

/// What voicerack asks of the desktop, one command at a time on a queue of its own: a source's
/// mute (`pw-cli set-param`), the default devices (`pw-metadata`), a notification (`gdbus`). A
/// PipeWire or notification service that stopped answering holds this queue, never the main
/// loop; what the commands say comes back as log lines that the main loop takes.
///
/// - Realtime: never. `mute`, `makeDefault`, `notify` and `take` from the main thread; the
///   commands run on the queue "voicerack-desktop".
public final class DesktopCommands: @unchecked Sendable {
    /// One line for the log.
    public struct Note: Sendable, Equatable {
        public init(text: String, warning: Bool) { (self.text, self.warning) = (text, warning) }

        public var text: String
        public var warning: Bool
    }

    private let queue = DispatchQueue(label: "voicerack-desktop")
    private let lock = NSLock()
    private var notes: [Note] = []
    private let remote: String?
    /// The tools wait at most this long (seconds) for a daemon or a service.
    public static let timeout = 5.0

    /// Commands for the PipeWire daemon `remote` (nil: `$PIPEWIRE_REMOTE` or the default).
    public init(remote: String?) {
        self.remote = remote
    }

    /// The notes of the commands that ended since the last call.
    public func take() -> [Note] {
        lock.withLock {
            defer { notes = [] }
            return notes
        }
    }

    /// Sets the mute of the node `id` (called `name`, for the log), as `pactl set-source-mute`
    /// does: its `Props` `mute`.
    public func mute(node id: Int, name: String, _ muted: Bool) {
        let arguments = ["pw-cli"] + remoteArguments + ["set-param", "\(id)", "Props", "{ mute: \(muted) }"]
        enqueue(arguments) { outcome in
            outcome.succeeded
                ? nil
                : Note(
                    text: "pipewire: could not \(muted ? "mute" : "unmute") '\(name)': \(outcome.output)", warning: true
                )
        }
    }

    /// Makes the node `name` the default sink (`sink` true) or source the way `wpctl set-default`
    /// does: the user's configured choice (`default.configured.audio.sink` / `.source` in the
    /// `default` metadata), which WirePlumber follows and remembers. Written with `pw-metadata`,
    /// because WirePlumber 0.4's wpctl refuses an `Audio/Source/Virtual` node.
    public func makeDefault(_ name: String, sink: Bool) {
        let key = sink ? "default.configured.audio.sink" : "default.configured.audio.source"
        let kind = sink ? "sink" : "source"
        let arguments =
            ["pw-metadata"] + remoteArguments
            + ["-n", "default", "0", key, "{ \"name\": \(Self.jsonString(name)) }", "Spa:String:JSON"]
        enqueue(arguments) { outcome in
            outcome.succeeded
                ? Note(text: "pipewire: '\(name)' is now the default \(kind) (--make-default)", warning: false)
                : Note(text: "pipewire: could not make '\(name)' the default \(kind): \(outcome.output)", warning: true)
        }
    }

    /// Sends a desktop notification through `org.freedesktop.Notifications` on the session bus
    /// (`gdbus`, from GLib's tools); `failed` makes the note when it could not be sent.
    public func notify(summary: String, body: String, failed: @escaping @Sendable (String) -> Note?) {
        let arguments = [
            "gdbus", "call", "--session", "--timeout", "\(Int(Self.timeout))", "--dest",
            "org.freedesktop.Notifications",
            "--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
            // The arguments follow "--": the last one, -1 (the server's own expiry), is no option.
            "--", Self.gvariantString("voicerack"), "0", Self.gvariantString("audio-input-microphone-muted"),
            Self.gvariantString(summary), Self.gvariantString(body), "@as []",
            "{'urgency': <byte 1>, 'category': <'device'>}", "-1",
        ]
        enqueue(arguments) { outcome in
            outcome.succeeded ? nil : failed(String(outcome.output.prefix { !$0.isNewline }))
        }
    }

    private var remoteArguments: [String] { remote.map { ["-r", $0] } ?? [] }

    private func enqueue(_ arguments: [String], note: @escaping @Sendable (DesktopTool.Outcome) -> Note?) {
        queue.async { [self] in
            let outcome = DesktopTool.run(arguments, timeout: Self.timeout + 1)
            if let line = note(outcome) { lock.withLock { notes.append(line) } }
        }
    }

    /// `text` as a JSON string, quotes included.
    public static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// `text` as a GVariant string literal (what gdbus parses its arguments as).
    public static func gvariantString(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            switch character {
            case "\\": quoted += "\\\\"
            case "'": quoted += "\\'"
            case "\n": quoted += "\\n"
            default: quoted.append(character)
            }
        }
        return quoted + "'"
    }
}
