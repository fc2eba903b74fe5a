import Foundation

/// A real client of the mount: ffmpeg fetches it over HTTP and decodes it to mono 48 kHz float.
public final class Listener {
    public let output: String
    private let process = Process()

    public init(url: String, output: String) throws {
        self.output = output
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-i", url, "-ac", "1", "-ar", "48000", "-f", "f32le", output,
        ]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Waits until ffmpeg ends (the source left the mount, so the server closed the connection).
    public func waitUntilExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        return !process.isRunning
    }

    /// The decoded samples.
    public var samples: [Float] {
        guard let data = FileManager.default.contents(atPath: output) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds passed.
@discardableResult
public func waitFor(_ timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(10_000)
    }
    return true
}
