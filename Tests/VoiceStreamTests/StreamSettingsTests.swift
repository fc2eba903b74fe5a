import Testing

@testable import VoiceStream

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
}
