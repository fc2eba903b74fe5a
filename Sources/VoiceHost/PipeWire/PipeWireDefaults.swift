import Foundation

/// Sets the session's default sink or source through WirePlumber (`wpctl set-default`), which
/// remembers the choice as the user's own.
///
/// - Realtime: never; main thread (waits for `wpctl`, which answers at once or fails).
enum PipeWireDefaults {
    /// Makes node `id` the default of its kind; true when wpctl succeeded.
    static func set(_ id: Int, remote: String?) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wpctl", "set-default", String(id)]
        if let remote {
            // wpctl has no option for the daemon; it reads the socket's name from the environment.
            process.environment = ProcessInfo.processInfo.environment.merging(["PIPEWIRE_REMOTE": remote]) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
