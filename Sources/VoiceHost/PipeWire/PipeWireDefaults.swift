import Foundation

/// Sets the session's default sink or source the way `wpctl set-default` does: by writing the
/// user's configured choice (`default.configured.audio.sink` / `.source` in the `default`
/// metadata), which WirePlumber follows and remembers. Written with `pw-metadata` (pipewire-bin,
/// beside `pw-dump`), because WirePlumber 0.4's wpctl refuses an `Audio/Source/Virtual` node.
///
/// - Realtime: never; main thread (waits for `pw-metadata`, which answers at once or fails).
enum PipeWireDefaults {
    /// Makes the node `name` the default sink (`sink` true) or source; true when it was written.
    static func set(_ name: String, sink: Bool, remote: String?) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let key = sink ? "default.configured.audio.sink" : "default.configured.audio.source"
        // A JSON string escapes what a node name could hold that JSON cannot.
        let quoted =
            (try? JSONSerialization.data(withJSONObject: [name], options: []))
            .flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
        process.arguments =
            ["pw-metadata"] + (remote.map { ["-r", $0] } ?? [])
            + ["-n", "default", "0", key, "{ \"name\": \(quoted) }", "Spa:String:JSON"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
