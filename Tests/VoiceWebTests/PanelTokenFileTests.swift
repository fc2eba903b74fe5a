import Foundation
import Testing
import VoiceWeb

/// The panel's lasting token: where it is kept, its mode, reuse across runs, rotation, and that
/// a running panel refuses the token a rotation replaced.
@Suite("web panel token file: 0600, reused, rotated", .serialized)
struct PanelTokenFileTests {
    let folder = NSTemporaryDirectory() + "voicerack-token-\(UUID().uuidString)"

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0o7777
    }

    @Test("made on first use under XDG_CONFIG_HOME/voicerack, mode 0600 in a 0700 folder, and reused")
    func madeAndReused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PanelTokenFile(environment: ["XDG_CONFIG_HOME": folder, "HOME": "/nonexistent"])
        #expect(file.path == folder + "/voicerack/panel-token")
        #expect(file.read() == nil)
        let first = try file.token()
        #expect(first.text.count == 32 && first.text.allSatisfy(\.isHexDigit))
        #expect(mode(file.path) == 0o600)
        #expect(mode(folder + "/voicerack") == 0o700)
        // A second run (a new value over the same file) gets the same token.
        let again = try PanelTokenFile(environment: ["XDG_CONFIG_HOME": folder]).token()
        #expect(again.text == first.text)
        // Without XDG_CONFIG_HOME: ~/.config.
        #expect(
            PanelTokenFile(environment: ["HOME": "/home/someone"]).path == "/home/someone/.config/voicerack/panel-token"
        )
    }

    @Test("a token file readable by others is not trusted: a new token replaces it, mode 0600")
    func widenedModeReplaced() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PanelTokenFile(path: folder + "/voicerack/panel-token")
        let first = try file.token()
        chmod(file.path, 0o644)
        let second = try file.token()
        #expect(second.text != first.text)
        #expect(mode(file.path) == 0o600)
    }

    @Test("rotate-token writes a new token and a running panel refuses the old one at once")
    func rotationInvalidatesOld() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PanelTokenFile(path: folder + "/voicerack/panel-token")
        let old = try file.token()
        let server = try PanelServer(
            address: PanelAddress(parsing: "127.0.0.1:0"), token: old, tokenFile: file,
            backend: PanelServerTests.Backend())
        try await PanelServerTests.offPool {
            try server.start()
            defer { server.stop() }
            let port = server.port
            func status(_ token: String) throws -> Int {
                try RawClient.get(
                    port: port,
                    "GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                ).status
            }
            #expect(try status(old.text) == 200)
            let new = try file.rotate()
            #expect(new.text != old.text)
            #expect(self.mode(file.path) == 0o600)
            #expect(try status(old.text) == 401)
            #expect(try status(new.text) == 200)
            #expect(server.url.hasSuffix("?token=" + new.text))
            #expect(try PanelTokenFile(path: file.path).token().text == new.text)
        }
    }
}
