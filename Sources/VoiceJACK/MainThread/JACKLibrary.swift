import Foundation

/// Which libjack this process runs on: jackd's, or PipeWire's (`pw-jack` puts PipeWire's first
/// on the library path), told by the file libjack was mapped from (`/proc/self/maps`).
///
/// - Realtime: never; any thread (read once, then a constant).
enum JACKLibrary {
    /// True when the libjack mapped into this process is PipeWire's (it lies under a
    /// `pipewire` folder, e.g. `.../pipewire-0.3/jack/libjack.so.0`).
    static let isPipeWire: Bool = {
        // Read to the end: /proc files report a size of 0, so a read by size finds nothing.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { return false }
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        return maps.split(separator: "\n").contains { $0.contains("libjack.so") && $0.contains("pipewire") }
    }()
}
