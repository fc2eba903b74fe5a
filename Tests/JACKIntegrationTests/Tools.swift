import Foundation

/// Where the JACK tools and the built `voicerack` are.
enum Tools {
    /// Environment for every child: never let a JACK client start a server on its own, never
    /// pick up the developer's default server, and keep what voicerack writes to the user's config
    /// folder (the web panel's lasting token) in a private one, so that tests running side by side
    /// neither share a token nor leave one in the developer's `~/.config`.
    static let environment: [String: String?] = [
        "JACK_NO_START_SERVER": "1", "JACK_DEFAULT_SERVER": nil, "XDG_CONFIG_HOME": privateConfigFolder,
    ]

    /// A config folder of this test process's own, made once.
    private static let privateConfigFolder: String = {
        let path = NSTemporaryDirectory() + "voicerack-test-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static let jackd = which("jackd")
    static let jackLsp = which("jack_lsp")
    static let jackConnect = which("jack_connect")
    static let jackCapture = which("jack_capture")
    static let jackBufsize = which("jack_bufsize")
    static let jackSimpleClient = which("jack_simple_client")
    static let jackTransport = which("jack_transport")
    static let tmux = which("tmux")

    /// True when the integration tests can run at all.
    static var jackAvailable: Bool { jackd != nil && jackLsp != nil && jackConnect != nil }

    /// The `voicerack` executable of this build: next to the test bundle (`swift test` builds
    /// every product into the same directory), else in `.build/debug` of the package.
    static var voicerack: String? {
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = (exe as NSString).deletingLastPathComponent
            // The bundle may be a directory (…/voicerackPackageTests.xctest/…) on some toolchains.
            while !dir.isEmpty, dir != "/" {
                candidates.append(dir + "/voicerack")
                if dir.hasSuffix("/.build") { break }
                dir = (dir as NSString).deletingLastPathComponent
            }
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        candidates.append(package + "/.build/debug/voicerack")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The first executable called `name` on PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
