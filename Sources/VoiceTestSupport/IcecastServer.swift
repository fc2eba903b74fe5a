import Foundation

/// A private icecast2 (Debian's) for one test (streaming tests, `run --stream` tests): its own icecast.xml, logs and pid file in a
/// temporary folder, a free port on 127.0.0.1, no burst on connect (a listener gets audio from
/// the moment it joins). Icecast refuses to run as root, so as root it changes to `nobody`
/// (`<changeowner>`), which needs the folder to be writable by that user.
public final class IcecastServer {
    public static let executable = "/usr/bin/icecast2"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    /// Seconds icecast waits for a silent source before it drops the mount and its listeners
    /// (`source-timeout`): how late a listener can end after a source that closed its connection
    /// while icecast did not see it go.
    public static let sourceTimeout = 10
    /// Seconds a test waits for a listener to end once the source left: the source timeout and
    /// 10 s for a machine whose cores the tests' real-time JACK threads hold.
    public static var listenerEndBound: Double { Double(sourceTimeout + 10) }

    public let folder: TemporaryFolder
    public let port: Int
    public let sourcePassword: String
    public let adminPassword = "admin-\(UInt32.random(in: 0...UInt32.max))"
    private var process: Process?

    public init(sourcePassword: String) throws {
        folder = try TemporaryFolder()
        chmod(folder.path, 0o777)
        port = try Self.freePort()
        self.sourcePassword = sourcePassword
        try config.write(toFile: folder.file("icecast.xml"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    private var config: String {
        let owner =
            getuid() == 0
            ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : ""
        return """
            <icecast>
              <limits><sources>4</sources><source-timeout>\(Self.sourceTimeout)</source-timeout>
                <burst-on-connect>0</burst-on-connect><burst-size>0</burst-size></limits>
              <authentication><source-password>\(sourcePassword)</source-password>
                <admin-user>admin</admin-user><admin-password>\(adminPassword)</admin-password></authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <paths><basedir>\(folder.path)</basedir><logdir>\(folder.path)</logdir>
                <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
                <pidfile>\(folder.file("icecast.pid"))</pidfile></paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
              <security><chroot>0</chroot>\(owner)</security>
            </icecast>
            """
    }

    /// Starts icecast2 and waits until it answers, on the same port each time.
    ///
    /// Debian 12's icecast2 (2.4.4) sometimes dies of SIGSEGV at start-up, ~40 ms in, right as the
    /// first client connects. Its log ends normally ("stats thread started"). This was seen in
    /// 2 of 5 runs of scripts/dev/stress-tests.sh. A loop of starts beside the stress run crashed 3
    /// of 150 times when it asked for the admin page at once, and 0 of 150 when it waited 0.5 s
    /// first. So the first connection waits `settleSeconds`. A crash at start-up (before it has
    /// served anything) is said and the server started again, at most `startAttempts` times in
    /// all. Any other failure to start is thrown at once.
    public func start() throws {
        var attempt = 1
        while true {
            do {
                try launch()
                return
            } catch {
                guard crashedAtStart, attempt < Self.startAttempts else { throw error }
                attempt += 1
                print(
                    "icecast2 on port \(port): \(error); starting it again (start \(attempt) of \(Self.startAttempts))")
            }
        }
    }

    /// Seconds between launching icecast2 and connecting to it (see `start`).
    static let settleSeconds = 0.5
    /// Starts tried when icecast2 crashes at start-up (see `start`).
    static let startAttempts = 3

    /// True when the last launch ended in SIGSEGV.
    private var crashedAtStart = false

    /// One start: launch, settle, wait until it accepts connections and serves its admin page.
    private func launch() throws {
        crashedAtStart = false
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.executable)
        p.arguments = ["-c", folder.file("icecast.xml")]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { throw ServerError("icecast2 did not start: \(error)") }
        process = p
        usleep(UInt32(Self.settleSeconds * 1_000_000))
        // 30 s: under scripts/dev/stress-tests.sh (two busy loops beside the suite) 10 s was once
        // not enough for the admin page to answer.
        let deadline = Date().addingTimeInterval(30)
        func failure(_ what: String) -> ServerError {
            guard !p.isRunning else { return ServerError("\(what) (still running)") }
            crashedAtStart = p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGSEGV
            let end = crashedAtStart ? "crashed with SIGSEGV" : "exited with \(p.terminationStatus)"
            return ServerError("\(what) (\(end))")
        }
        while !Self.accepts(port: port) {
            guard p.isRunning, Date() < deadline else { throw failure("icecast2 did not listen on port \(port)") }
            usleep(20_000)
        }
        // Accepting connections is not being ready: a source that logged in right then got
        // "socket error" now and then (seen under scripts/dev/stress-tests.sh). Ready is when the
        // server answers its admin statistics over HTTP.
        while !serves() {
            guard p.isRunning, Date() < deadline else {
                throw failure("icecast2 did not answer on port \(port) within 30 s")
            }
            usleep(50_000)
        }
    }

    /// True when the server answers its admin statistics (HTTP 200).
    private func serves() -> Bool {
        let r = try? CommandRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "admin:\(adminPassword)",
                "http://127.0.0.1:\(port)/admin/stats",
            ])
        return r?.standardOutput == "200"
    }

    /// SIGTERM and wait.
    public func stop() { signal(SIGTERM) }

    /// SIGKILL and wait: the server dies as in a crash, connections drop.
    public func kill() { signal(SIGKILL) }

    /// SIGSTOP: the server stops reading; connections stay open, the network "stalls".
    public func pause() { if let p = process { Foundation.kill(p.processIdentifier, SIGSTOP) } }

    /// SIGCONT.
    public func resume() { if let p = process { Foundation.kill(p.processIdentifier, SIGCONT) } }

    private func signal(_ sig: Int32) {
        guard let p = process, p.isRunning else { return }
        Foundation.kill(p.processIdentifier, SIGCONT)
        Foundation.kill(p.processIdentifier, sig)
        p.waitUntilExit()
        process = nil
    }

    /// Listeners on `mount` now, from the admin stats (0 when the mount has no source).
    public func listeners(_ mount: String) -> Int {
        guard
            let r = try? CommandRunner.run(
                "/usr/bin/curl",
                ["-s", "-u", "admin:\(adminPassword)", "http://127.0.0.1:\(port)/admin/stats?mount=\(mount)"])
        else { return 0 }
        guard let open = r.standardOutput.range(of: "<listeners>"),
            let close = r.standardOutput.range(of: "</listeners>", range: open.upperBound..<r.standardOutput.endIndex)
        else { return 0 }
        return Int(r.standardOutput[open.upperBound..<close.lowerBound]) ?? 0
    }

    /// True while a source is connected on `mount`.
    public func hasSource(_ mount: String) -> Bool {
        let r = try? CommandRunner.run(
            "/usr/bin/curl", ["-s", "-u", "admin:\(adminPassword)", "http://127.0.0.1:\(port)/admin/stats"])
        return r?.standardOutput.contains("<source mount=\"\(mount)\">") ?? false
    }

    /// What icecast2 logged (errors and accesses).
    public var logs: String {
        ["error.log", "access.log"].compactMap { try? String(contentsOfFile: folder.file($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    /// A port nothing listens on now (bound to 0 and released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
