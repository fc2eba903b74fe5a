import Foundation
import Testing
import VoiceEngine
import VoiceSession

@testable import VoicePresets

/// `[stream]`: read into the configuration, turned into the streamer's settings, and every bad
/// value (a password in the preset included) refused with the file, the line and the key.
@Suite struct StreamSectionTests {
    @Test("a [stream] section sets every stream key; password_file is taken relative to the preset")
    func readsTheSection() throws {
        let temporary = try TemporaryPresets()
        let path = try temporary.write(
            "show",
            """
            base = "raw"
            [stream]
            url = "icecast://source@radio.example:8000/show.mp3"
            tap = "karaoke"
            bitrate_kbps = 192
            channels = 2
            name = "The show"
            description = "Live"
            genre = "Talk"
            password_file = "secrets/pass"
            autostart = false
            """)
        let c = try temporary.library.load(path).session
        #expect(c.streamURL == "icecast://source@radio.example:8000/show.mp3")
        #expect(c.streamTap == "karaoke" && c.streamAutostart == false)
        #expect(c.streamPasswordFile == temporary.directory + "/secrets/pass")
        let s = try #require(c.stream())
        #expect(s.format == nil && s.bitrateKbps == 192 && s.channels == 2)
        #expect(s.name == "The show" && s.description == "Live" && s.genre == "Talk")
        #expect(s.passwordFile == temporary.directory + "/secrets/pass" && s.passwordEnv == nil)
        // --stream URL replaces the preset's URL and keeps the rest.
        #expect(c.stream(url: "icecast://h/x.ogg")?.bitrateKbps == 192)
        // No URL anywhere: no stream.
        #expect(SessionSettings().stream() == nil)
        // presets show renders the section back, and it reads back the same.
        let rendered = PresetRenderer.toml(try temporary.library.load(path), pluginHost: lv2Host)
        #expect(rendered.contains("[stream]"))
        let again = try temporary.write("again", rendered)
        #expect(try temporary.library.load(again).session == c)
        // A preset without a stream does not show an empty section.
        #expect(!PresetRenderer.toml(try temporary.library.load("raw"), pluginHost: lv2Host).contains("[stream]"))
    }

    @Test(
        "bad [stream] values are refused with file:line and the key: a password in the URL or as a key, a bad URL, format, tap, bitrate or channels"
    )
    func refusesBadValues() throws {
        let temporary = try TemporaryPresets()
        let cases: [(body: String, key: String, says: String)] = [
            ("url = \"icecast://source:hackme@h:8000/a.ogg\"", "stream.url", "never holds the password"),
            ("password = \"hackme\"", "stream.password", "never holds the password"),
            ("url = \"http://h:8000/a.ogg\"", "stream.url", "scheme 'http' is not icecast"),
            ("url = \"icecast://h:99999/a.ogg\"", "stream.url", "the port is not a number"),
            ("format = \"aac\"", "stream.format", "\"auto\", \"opus\" or \"mp3\""),
            ("tap = \"tuning\"", "stream.tap", "\"voice\", \"mic\", \"reference\", \"monitor\" or \"karaoke\""),
            ("bitrate_kbps = 900", "stream.bitrate_kbps", "out of range"),
            ("format = \"mp3\"\nbitrate_kbps = 100", "stream.bitrate_kbps", "100 is not an MP3 bitrate"),
            ("url = \"icecast://h/a.mp3\"\nbitrate_kbps = 100", "stream.bitrate_kbps", "not an MP3 bitrate"),
            ("channels = 1.5", "stream.channels", "1.5 is not 1 or 2"),
            ("channels = 3", "stream.channels", "out of range"),
            ("name = \"two\\nlines\"", "stream.name", "must be one line"),
            ("password_env = \"P\"\npassword_file = \"f\"", "stream.password_file", "not both"),
        ]
        for (body, key, says) in cases {
            let path = try temporary.write("bad", "description = \"x\"\n\n[stream]\n" + body + "\n")
            let error = presetError({ () throws(PresetError) in try temporary.library.load(path) })
            // The offending key is on the section's last line (4 or 5).
            let line = 3 + body.split(separator: "\n").count
            #expect(error?.line == line, "\(body): \(String(describing: error))")
            #expect(error?.key == key, "\(body): \(String(describing: error))")
            #expect(error?.description.hasPrefix("\(path):\(line): ") == true, "\(body)")
            #expect(error?.message.contains(says) == true, "\(body): \(String(describing: error?.message))")
            #expect(error?.description.contains("hackme") != true, "the password was echoed: \(body)")
        }
    }
}
