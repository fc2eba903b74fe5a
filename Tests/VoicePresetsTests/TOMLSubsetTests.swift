import Testing

@testable import VoicePresets

/// The TOML subset: values, comments, positions.
@Suite struct TOMLSubsetTests {
    private func values(_ text: String) throws -> [String: TOMLValue.Kind] {
        let document = try TOMLDocument(parsing: text)
        var result: [String: TOMLValue.Kind] = [:]
        for entry in document.root { result[entry.key] = entry.value.kind }
        for section in document.sections {
            for entry in section.entries { result["\(section.name).\(entry.key)"] = entry.value.kind }
        }
        return result
    }

    @Test func scalars() throws {
        let v = try values(
            """
            a = 1
            b = -7
            c = +1.5
            d = 1e-3
            e = -2.5E+2
            f = 1_000
            g = 3.141_5
            h = true
            i = false
            j = 0
            k = -0.0
            """)
        #expect(v["a"] == .integer(1))
        #expect(v["b"] == .integer(-7))
        #expect(v["c"] == .float(1.5))
        #expect(v["d"] == .float(0.001))
        #expect(v["e"] == .float(-250))
        #expect(v["f"] == .integer(1000))
        #expect(v["g"] == .float(3.1415))
        #expect(v["h"] == .boolean(true))
        #expect(v["i"] == .boolean(false))
        #expect(v["j"] == .integer(0))
        #expect(v["k"] == .float(0))
    }

    @Test func strings() throws {
        let v = try values(
            #"""
            basic = "say \"hi\"\\\n\tend"
            literal = 'C:\path\no "escapes"'
            unicode = "caf\u00E9 \U0001F3A4"
            empty = ""
            hash = "# not a comment" # a comment
            """#)
        #expect(v["basic"] == .string("say \"hi\"\\\n\tend"))
        #expect(v["literal"] == .string(#"C:\path\no "escapes""#))
        #expect(v["unicode"] == .string("café 🎤"))
        #expect(v["empty"] == .string(""))
        #expect(v["hash"] == .string("# not a comment"))
    }

    @Test func sectionsCommentsAndLines() throws {
        let document = try TOMLDocument(
            parsing: "# head\r\ntop = 1\r\n\r\n  [ input ]  # mic\r\n\tgain_db = 3 # dB\r\n")
        #expect(
            document.root == [TOMLEntry(key: "top", line: 2, value: TOMLValue(kind: .integer(1), text: "1", line: 2))])
        let section = try #require(document.sections.first)
        #expect(document.sections.count == 1)
        #expect(section.name == "input")
        #expect(section.line == 4)
        let entry = try #require(section.entries.first)
        #expect(entry.line == 5)
        #expect(entry.value.text == "3")
    }

    @Test(arguments: [
        ("x = 01", 1), ("x = 1.", 1), ("x = .5", 1), ("x = 1e", 1), ("x = _1", 1), ("x = 1_", 1),
        ("x = inf", 1), ("x = [1]", 1), ("x = {a = 1}", 1), ("x = \"\"\"a\"\"\"", 1), ("\n\"x\" = 1", 2),
        ("[[a]]", 1), ("x = 1 2", 1), ("= 1", 1), ("x = 99999999999999999999", 1), ("x = 1\nx = 2", 2),
        ("[s]\n[s]", 2), ("x = 1\n[x]", 2), ("x = \"\\u12\"", 1), ("x = \"\\u+123\"", 1),
    ])
    func rejects(text: String, line: Int) {
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: text) }
        do {
            _ = try TOMLDocument(parsing: text)
        } catch {
            #expect(error.line == line, "\(text): \(error.message)")
        }
    }
}

/// Hostile sizes: overlong names and lines are refused on their line with the limit named, after
/// one linear pass (a 5 MB section name went through an O(n·m) suggestion search before).
@Suite struct TOMLSizeLimitTests {
    private func syntaxError(_ text: String) -> TOMLSyntaxError? {
        do {
            _ = try TOMLDocument(parsing: text)
            Issue.record("expected a syntax error")
            return nil
        } catch {
            return error
        }
    }

    @Test func overlongSectionNameIsRefused() {
        let limit = TOMLDocument.maximumNameLength
        let e = syntaxError("# big\n[" + String(repeating: "a", count: limit + 1) + "]\nx = 1\n")
        #expect(e?.line == 2)
        #expect(e?.message == "section name is \(limit + 1) characters long; names are at most \(limit)")
        let huge = syntaxError("# big\n[" + String(repeating: "a", count: 5_000_000) + "]\nx = 1\n")
        #expect(huge?.line == 2)
        #expect(huge?.message == "line is 5000002 characters long; lines are at most \(TOMLDocument.maximumLineLength)")
        #expect((try? TOMLDocument(parsing: "[" + String(repeating: "a", count: limit) + "]\n")) != nil)
    }

    @Test func overlongKeyIsRefused() {
        let limit = TOMLDocument.maximumNameLength
        let e = syntaxError("[agc]\n" + String(repeating: "k", count: limit + 1) + " = 1\n")
        #expect(e?.line == 2)
        #expect(e?.message == "key is \(limit + 1) characters long; names are at most \(limit)")
    }

    @Test func overlongLineIsRefused() {
        let limit = TOMLDocument.maximumLineLength
        let e = syntaxError("description = \"" + String(repeating: "d", count: 5_000_000) + "\"\n")
        #expect(e?.line == 1)
        #expect(e?.message == "line is 5000016 characters long; lines are at most \(limit)")
        let longest = "description = \"" + String(repeating: "d", count: limit - 16) + "\""
        #expect(longest.unicodeScalars.count == limit)
        #expect((try? TOMLDocument(parsing: longest)) != nil)
    }
}
