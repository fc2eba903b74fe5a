import Testing

@testable import VoiceControl

/// `ControlText.escaped`: what a `--control` line echoes.
@Suite struct ControlTextTests {
    @Test func controlsBecomeVisibleEscapes() {
        #expect(ControlText.escaped("plain text, ümlaut and 日本") == "plain text, ümlaut and 日本")
        #expect(ControlText.escaped("\u{1B}[2J\u{07}") == "\\x1b[2J\\x07")
        #expect(ControlText.escaped("a\tb\rc\nd") == "a\\tb\\rc\\nd")
        #expect(ControlText.escaped("\u{7F}\u{9B}\u{0}") == "\\x7f\\u{9b}\\x00")
        #expect(ControlText.escaped("abc\u{202E}def") == "abc\\u{202e}def")
    }
}
