import Foundation

/// Runs built programs and system tools from tests and captures what they print.
public enum CommandRunner {
    /// What a finished command left behind.
    public struct Result: Sendable {
        /// The exit code, or the signal number when `signaled`.
        public let status: Int32
        /// True when the command ended by a signal (a crash, unless the test sent it).
        public var signaled = false
        public let standardOutput: String
        public let standardError: String
    }

    /// The folder holding the package's built products (the test bundle sits there too).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The built `voicerack` executable next to the test bundle.
    public static var voicerack: String { productsDirectory.appendingPathComponent("voicerack").path }

    /// Runs `executable` with `arguments`, waits, and returns its exit status and output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting: a full pipe would otherwise block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the built `voicerack` with `arguments`.
    public static func voicerack(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try run(voicerack, arguments, environment: environment)
    }
}

/// A fresh temporary folder, removed when the value is dropped.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("voicerack-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }
}
