import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// Fuzz: mutated LV2 states (real saved states and hostile Turtle) through `LV2StateCheck`, and
/// what it passes restored into a real instance of the plugin, in this process: a crash in serd,
/// sord, lilv or the plugin ends the test run, which is the detection. Each state is refused by
/// the check, refused by the restore with an `LV2Error`, or restored.
@Suite struct LV2StateFuzzTests {
    /// Pieces of Turtle that have hurt Turtle readers: no preset subject, relative and blank
    /// subjects, unknown prefixes, NUL bytes, huge literals and numbers, deep nesting.
    static let fragments: [[UInt8]] =
        [
            "<urn:a> <urn:b> <urn:c> .", " a pset:Preset ", "_:b a pset:Preset .", "<> a pset:Preset .",
            "@prefix pset: <urn:x#> .\n", "@prefix : <> .\n", "@base <urn:base/> .\n", "@base <> .\n",
            "nope:thing", "\0", "\"\0\"", ";", ".", ",", "[", "]", "(", ")", "<", ">", "\"", "\"\"\"", "\\u0000",
            "\\U0010FFFF", "^^xsd:float", "^^<urn:t>", "@en", "1e999", "-1e999", "NaN", "INF",
            "99999999999999999999999999", "lv2:port [ lv2:symbol \"threshold\" ; pset:value \"x\" ] ;",
            "lv2:port [ lv2:symbol \"nope\" ; pset:value 1.0 ] ;", "lv2:port [ pset:value 1.0 ] ;",
            "lv2:appliesTo <urn:other> ;", "lv2:appliesTo <http://gareus.org/oss/lv2/dpl#mono> ;",
            "state:state [ <urn:k> \"v\" ] ;", "state:state [ <urn:k> [ a <urn:atom> ] ] ;",
            "\"\(String(repeating: "a", count: 100_000))\"", String(repeating: "[ <urn:p> ", count: 300),
            String(repeating: "( ", count: 300), String(repeating: "] ", count: 300), "\r", "\n", "#",
        ].map { Array($0.utf8) }

    /// A state with the preset subject but nothing else, and states with none.
    static let hostile = [
        "<urn:a> <urn:b> <urn:c> .", "<urn:s> a pset:Preset .", "<urn:s> a pset:Preset ; lv2:appliesTo <urn:x> .",
        "_:b a pset:Preset ; lv2:appliesTo <http://gareus.org/oss/lv2/dpl#mono> .", "", "\0",
    ]

    @Test func mutatedStatesAreRefusedOrRestored() throws {
        // Real states, tuned away from the defaults so they carry port values and plugin state.
        let sources: [(uri: String, state: String)] = [
            (Plugins.dpl, try makeUnit(Plugins.dpl, controls: ["threshold": -4.5]).savedState()),
            (Plugins.lspGate, try makeUnit(Plugins.lspGate, controls: ["gt": 0.02]).savedState()),
            (Plugins.singlePara, try makeUnit(Plugins.singlePara).savedState()),
        ]
        var random = SeededRandom(seed: FuzzTally.seed(35))
        var tally = FuzzTally("LV2 state strings")
        for _ in 0..<FuzzTally.budget(300) {
            let source = sources.randomElement(using: &random)!
            let start = Int.random(in: 0..<8, using: &random) == 0 ? hostileStart(&random) : source.state
            // Half keep the syntax and change values, so they reach the restore.
            let text =
                Bool.random(using: &random)
                ? Self.valuesMutated(start, &random)
                : ByteMutation.mutated(start, rounds: 3, fragments: Self.fragments, &random)
            guard LV2StateCheck.problem(in: text) == nil else {
                tally.record(.cleanError)
                continue
            }
            do {
                _ = try makeUnit(source.uri, state: text)
                tally.record(.accepted)
            } catch {
                tally.record(.cleanError)
            }
        }
        print(tally.summary)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
    }

    /// Values a restore must survive: out of every port's range, not numbers, empty, huge.
    static let extremes = [
        "1e999", "-1e999", "NaN", "INF", "-0", "3.4e38", "-3.4e38", "1e-45", "99999999999999999999", "\"\"",
        "\"x\"", "\"\(String(repeating: "z", count: 10_000))\"", "\"0\"^^xsd:int", "\"1\"^^<urn:t>", "<urn:x>",
        "[]", "()", "true",
    ]

    /// `text` with 1–3 numbers or quoted strings replaced by extremes, or two of them swapped.
    static func valuesMutated(_ text: String, _ random: inout SeededRandom) -> String {
        let pattern = try! NSRegularExpression(pattern: #"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|"[^"\n]*""#)
        var out = text
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let found = pattern.matches(in: out, range: NSRange(out.startIndex..., in: out))
            guard let a = found.randomElement(using: &random), let range = Range(a.range, in: out) else { break }
            let swapped = found.randomElement(using: &random).flatMap { Range($0.range, in: out) }.map {
                String(out[$0])
            }
            let value = Bool.random(using: &random) ? swapped ?? "0" : extremes.randomElement(using: &random)!
            out.replaceSubrange(range, with: value)
        }
        return out
    }

    /// One of the hostile states, as the start of an input.
    func hostileStart(_ random: inout SeededRandom) -> String { Self.hostile.randomElement(using: &random)! }
}
