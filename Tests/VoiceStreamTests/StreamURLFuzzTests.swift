import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceStream

/// Fuzz: mutated `--stream` URLs that carry a recognisable password, through the URL parser and
/// the settings check. No error, and no redacted description of a URL whose password holds it,
/// may contain the recognisable password, as written or percent-decoded: that would be a
/// disclosure.
@Suite struct StreamURLFuzzTests {
    static let password = "Hunter2-Xy9"

    /// The password as a user might paste it: plain, percent-escaped in part, or with the
    /// characters that end URL parts around it.
    static let written = [
        password, "Hunt%65r2-Xy9", "%48unter2%2DXy9", password + "/x", "a/" + password, password + "@b",
        "a@" + password, password + ":c", ":" + password, password + "%2F%40",
    ]

    /// URL shapes around the password: credentials in their place, a missing `@`, the password
    /// where the port or the mount goes, in a query.
    static let shapes = [
        "icecast://source:PW@127.0.0.1:8000/live.ogg", "icecast://source:PW@radio.example/live.mp3",
        "icecast://PW@host/live", "icecast://source:PW/host/live", "icecast://source:PW", "icecast:/source:PW@h/x",
        "Icecast://dj:PW@[::1]:8000/live.opus", "http://source:PW@h:8000/live", "icecast://h:8000/live?pass=PW",
        "icecast://source:PW@h:8000/live#PW", "icecast://source:PW@h:PW/live", "icecast://source:PW@/live",
    ]

    static let fragments: [[UInt8]] = [
        "/", "@", ":", "%", "%2F", "%40", "%3A", "%zz", "%%", "::", "[", "]", "?", "#", " ", "\0", "\n", "icecast://",
        "http://", ":8000", ":99999999999999999999", ":-1", "/live.ogg", "/live.mp3", "source:", password, "é",
    ].map { Array($0.utf8) }

    @Test func errorsAndDescriptionsNeverHoldThePassword() {
        var random = SeededRandom(seed: FuzzTally.seed(35))
        var tally = FuzzTally("stream URLs")
        for _ in 0..<FuzzTally.budget(500) {
            let shape = Self.shapes.randomElement(using: &random)!
            let start = shape.replacingOccurrences(of: "PW", with: Self.written.randomElement(using: &random)!)
            let url = ByteMutation.mutated(start, rounds: 3, fragments: Self.fragments, keepingOneIn: 4, &random)
            do {
                // Parsed: the recognisable password, where the parser took it for the password,
                // must not be in the description. The description shows the user, host and
                // mount, where a mutation may have copied the same letters.
                let target = try StreamSettings(url: url).resolve(environment: [:])
                let shownParts = [target.url.user, target.url.host, target.url.mount].joined(separator: " ")
                let shown =
                    Self.discloses(target.password.value, Self.password)
                    && Self.discloses(target.description, Self.password) && !Self.discloses(shownParts, Self.password)
                tally.record(shown ? .disclosure("\(url) -> \(target.description)") : .accepted)
            } catch {
                let shown = Self.discloses(error.description, Self.password)
                tally.record(shown ? .disclosure("\(url) -> \(error.description)") : .cleanError)
            }
        }
        print(tally.summary)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    }

    /// Whether `text` holds `secret`, in any case, as written or percent-decoded.
    static func discloses(_ text: String, _ secret: String) -> Bool {
        let secret = secret.lowercased()
        return [text, text.removingPercentEncoding ?? ""].contains { $0.lowercased().contains(secret) }
    }
}
