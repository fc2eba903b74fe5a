import Testing
import VoicePresets

@Suite("JACK connection key")
struct JACKKeyTests {
    @Test(
        "jack.auto_connect is on by default, off when a preset says false, inherited from a base, refused when not a boolean"
    )
    func autoConnect() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("plain", "description = \"plain\"\n")
        #expect(try temporary.library.load("plain").session.autoConnect)
        try temporary.write("patched", "[jack]\nauto_connect = false\n")
        #expect(try !temporary.library.load("patched").session.autoConnect)
        try temporary.write("child", "base = \"patched\"\n")
        #expect(try !temporary.library.load("child").session.autoConnect)
        try temporary.write("bad", "[jack]\nauto_connect = \"no\"\n")
        let e = #expect(throws: PresetError.self) { try temporary.library.load("bad") }
        #expect(
            e?.description.contains(":2: jack.auto_connect must be true or false") == true, "\(String(describing: e))")
    }
}
