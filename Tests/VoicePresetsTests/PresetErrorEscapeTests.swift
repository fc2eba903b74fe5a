import Foundation
import Testing

@testable import VoicePresets

/// Bytes from a preset file reach an error message visible, never raw: a CR-only file's CR and
/// a NUL byte are written as escapes, so a terminal shows them instead of obeying them.
@Suite struct PresetErrorEscapeTests {
    @Test func carriageReturnsAndNULBytesAreEscaped() throws {
        let temporary = try TemporaryPresets()
        for (name, text, shown) in [
            ("cr", "[input]\rgain_db = 3\r", "found '\\r'"),
            ("nul", "[input]\ngain_db = \"a\u{0}b\u{1b}[2J\"\n", "a\\x00b\\x1b[2J"),
            ("nul-key", "[input]\ngain\u{0}db = 3\n", "\\x00"),
        ] {
            let path = try temporary.write(name, text)
            let error = try #require(presetError { () throws(PresetError) in try temporary.library.load(path) })
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 }, "\(name): \(error.description)")
            #expect(error.description.contains(shown), "\(name): \(error.description)")
        }
    }
}
