import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceStream

/// URL parsing, the `[stream]` settings' validation (every error names its key, exit 64), where
/// the password comes from, and that no text made from a target shows it.
@Suite("Stream settings")
struct StreamSettingsTests {
    @Test("a full URL gives user, password, host, port and mount")
    func fullURL() throws {
        let url = try IcecastURL(parsing: "icecast://dj:s%40cret@radio.example:8010/live.opus")
        #expect(url.user == "dj")
        #expect(url.password?.value == "s@cret")
        #expect(url.host == "radio.example")
        #expect(url.port == 8010)
        #expect(url.mount == "/live.opus")
    }

    @Test("without user and port: source and 8000; a password may contain ':'")
    func defaults() throws {
        let bare = try IcecastURL(parsing: "icecast://radio.example/live")
        #expect(bare.user == "source" && bare.port == 8000 && bare.password == nil && bare.mount == "/live")
        let colon = try IcecastURL(parsing: "icecast://:a:b@[::1]:9000/m.mp3")
        #expect(colon.user == "source" && colon.password?.value == "a:b" && colon.host == "::1" && colon.port == 9000)
    }

    @Test(
        "bad URLs are refused with the url key (64)",
        arguments: [
            "http://h:8000/m", "icecast://h:8000", "icecast://h:99999/m", "icecast://h:x/m", "icecast://:8000/m",
            "icecast://h/", "radio.example/live",
        ])
    func badURL(_ text: String) {
        #expect {
            try IcecastURL(parsing: text)
        } throws: { error in
            guard let e = error as? StreamError, case .badSetting(let key, _) = e else { return false }
            return key == "url" && e.exitCode == 64 && e.description.contains("icecast://[USER[:PASSWORD]@]HOST")
        }
    }

    @Test("format from the key or the mount, bitrate defaults and limits, channels")
    func validation() throws {
        var s = StreamSettings(url: "icecast://source:pw@h:8000/live.mp3")
        #expect(try s.resolve().format == .mp3)
        #expect(try s.resolve().bitrateKbps == 128)
        s.url = "icecast://source:pw@h:8000/live"
        #expect(try s.resolve().format == .opus)
        #expect(try s.resolve().bitrateKbps == 64)
        func key(_ settings: StreamSettings) -> String? {
            do {
                _ = try settings.resolve()
                return nil
            } catch {
                guard case .badSetting(let key, _) = error else { return "not a setting error" }
                #expect(error.exitCode == 64)
                return key
            }
        }
        var t = s
        t.format = "aac"
        #expect(key(t) == "format")
        t = s
        t.bitrateKbps = 600
        #expect(key(t) == "bitrate_kbps")
        t.format = "mp3"
        t.bitrateKbps = 100
        #expect(key(t) == "bitrate_kbps")
        t.bitrateKbps = 320
        #expect(key(t) == nil)
        t.channels = 3
        #expect(key(t) == "channels")
        t = s
        t.name = "two\nlines"
        #expect(key(t) == "name")
    }

    @Test("the password comes from the URL, an environment variable or a file, once")
    func passwordSources() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("pw")
        try "fromfile\nignored\n".write(toFile: file, atomically: true, encoding: .utf8)
        var s = StreamSettings(url: "icecast://source@h:8000/m")
        s.passwordEnv = "VR_TEST_PW"
        #expect(try s.resolve(environment: ["VR_TEST_PW": "fromenv"]).password.value == "fromenv")
        #expect(
            throws: StreamError.badSetting(
                key: "password_env", message: "environment variable VR_TEST_PW is not set or empty")
        ) {
            try s.resolve(environment: [:])
        }
        s.passwordEnv = nil
        s.passwordFile = file
        #expect(try s.resolve().password.value == "fromfile")
        s.passwordFile = folder.file("missing")
        #expect(throws: StreamError.badSetting(key: "password_file", message: "cannot read \(folder.file("missing"))"))
        {
            try s.resolve()
        }
        s.passwordFile = nil
        #expect(throws: StreamError.self) { try s.resolve(environment: [:]) }
        s.url = "icecast://source:inurl@h:8000/m"
        s.passwordEnv = "VR_TEST_PW"
        #expect(throws: StreamError.self) { try s.resolve(environment: ["VR_TEST_PW": "x"]) }
    }

    @Test("no text made from a target or its errors shows the password")
    func redaction() throws {
        let password = "Kx7pQ2unit"
        var s = StreamSettings(url: "icecast://dj:\(password)@radio.example:8010/live.opus")
        s.name = "show"
        let target = try s.resolve()
        var dumped = ""
        dump(target, to: &dumped)
        var dumpedURL = ""
        dump(target.url, to: &dumpedURL)
        let texts = [
            target.description, "\(target)", String(reflecting: target), dumped, dumpedURL, target.server,
            "\(target.password)", String(reflecting: target.password),
            StreamError.refused(server: target.server).description,
            StreamError.unreachable(server: target.server, detail: "x").description,
            StreamStatus(state: .stopped(reason: "credentials refused")).text,
        ]
        #expect(target.description == "icecast://dj@radio.example:8010/live.opus, opus 64 kb/s mono")
        for text in texts { #expect(!text.contains(password), "\(text)") }
        // A bad URL's message does not echo the URL either.
        do {
            _ = try IcecastURL(parsing: "icecast://dj:\(password)@radio.example:bad/live")
        } catch {
            #expect(!error.description.contains(password))
        }
    }

    /// A password no message may hold, in every place a URL's error can come from.
    static let recognisable = "Hunter2-Xy9"

    @Test(
        "every error of the URL parser keeps the password out of its message",
        arguments: [
            "source:\(recognisable)@h:8000/live",  // no scheme
            "http://source:\(recognisable)@h/live",  // another scheme
            "source:\(recognisable)@icecast://h/live",  // the credentials before the scheme
            "icecast://source:\(recognisable)@h:8000",  // no mount
            "icecast://us%zz:\(recognisable)@h/live",  // the user's percent-encoding
            "icecast://source:\(recognisable)%zz@h/live",  // the password's percent-encoding
            "icecast://source:\(recognisable)@h:x/live",  // a bad port
            "icecast://source:\(recognisable)",  // the host forgotten: the password reads as a port
            "icecast://source:\(recognisable)/x",  // the same with a slash in the password
            "icecast://source:\(recognisable)@:8000/live",  // no host
            "icecast://source:\(recognisable)@h/",  // an empty mount
            "icecast://source:\(recognisable)/x@h/bad mount",  // a bad mount, a slash in the password
            "icecast://h:8000/live?pass=\(recognisable)",  // the password as a query: in the mount
        ])
    func errorsHideThePassword(_ text: String) {
        do {
            _ = try IcecastURL(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(!error.description.lowercased().contains(Self.recognisable.lowercased()), "\(error.description)")
            #expect(error.description.contains("icecast://[USER[:PASSWORD]@]HOST"), "\(error.description)")
        }
    }

    @Test("a password holding '/' or '@' ends at the last '@' before the host; an '@' in the mount stays there")
    func slashInPassword() throws {
        let slash = try IcecastURL(parsing: "icecast://source:\(Self.recognisable)/x@127.0.0.1:8000/live.ogg")
        #expect(slash.password?.value == Self.recognisable + "/x")
        #expect(slash.host == "127.0.0.1" && slash.port == 8000 && slash.mount == "/live.ogg")
        let at = try IcecastURL(parsing: "icecast://dj:a@b/c@radio.example/live")
        #expect(at.user == "dj" && at.password?.value == "a@b/c" && at.host == "radio.example")
        let mount = try IcecastURL(parsing: "icecast://radio.example:8010/live@night.ogg")
        #expect(mount.password == nil && mount.host == "radio.example" && mount.mount == "/live@night.ogg")
    }

    @Test("reconnect backoff doubles from 1 s to a 30 s cap")
    func backoff() {
        let options = StreamOptions()
        #expect((1...7).map { options.backoff(attempt: $0) } == [1, 2, 4, 8, 16, 30, 30])
    }

    @Test("status text shows the state, bitrate, time on air and loss")
    func statusText() {
        var status = StreamStatus()
        status.state = .live
        status.bitrateKbps = 64.4
        status.secondsOnAir = 3723
        status.secondsLost = 2.25
        status.reconnects = 1
        #expect(status.text == "stream live 64 kb/s, on air 1:02:03, lost 2.2 s, 1 reconnect")
        status.state = .reconnecting(attempt: 2, retryIn: 2, reason: "connection refused or timed out")
        #expect(status.text.hasPrefix("stream reconnecting (attempt 2 in 2 s: connection refused or timed out)"))
    }
}
