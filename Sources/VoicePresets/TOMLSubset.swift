import Foundation

/// A parsed TOML-subset document: top-level entries and single-level `[section]` tables.
///
/// Why a subset of our own: presets need the line of every key and value for their error messages,
/// and TOMLKit reports none (its manifest also needs a package that is not available offline).
/// Supported: `#` comments, blank lines, `[section]` headers (one level), `key = value` with basic
/// strings (`\" \\ \n \t \r \uXXXX \UXXXXXXXX` escapes), literal strings, decimal integers, floats
/// (`-1.5`, `+1.5`, `1e-3`, `1_000.5`) and booleans. Not supported (and reported as such): arrays,
/// inline tables, dotted keys, quoted keys, multi-line strings, dates, `inf`/`nan`.
///
/// - Realtime: never (allocates freely; runs while presets load).
struct TOMLDocument: Sendable, Equatable {
    /// Entries before the first section header, in file order.
    var root: [TOMLEntry] = []
    /// Sections in file order; names are unique.
    var sections: [TOMLSection] = []
}

/// A `[name]` table and its entries in file order.
struct TOMLSection: Sendable, Equatable {
    var name: String
    /// Line of the `[name]` header (1-based).
    var line: Int
    var entries: [TOMLEntry] = []
}

/// One `key = value` line. Values are single-line, so the key and its value share `line`.
struct TOMLEntry: Sendable, Equatable {
    var key: String
    /// 1-based line of both the key and the value.
    var line: Int
    var value: TOMLValue
}

/// A scalar value together with its source text (for messages such as `= 5000 is out of range`).
struct TOMLValue: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
    }

    var kind: Kind
    /// The value exactly as written, quotes included.
    var text: String
    /// 1-based line of the value.
    var line: Int
}

extension TOMLValue {
    /// `text` read as one value of key `name` in `section`, as a preset line's value is read
    /// (the same grammar and messages); no document is made.
    init(parsing text: String, section: String, name: String) throws(TOMLSyntaxError) {
        guard text.unicodeScalars.count <= TOMLDocument.maximumLineLength, !text.contains(where: \.isNewline) else {
            throw TOMLSyntaxError(
                line: 1, key: "\(section).\(name)", message: "the value of '\(section).\(name)' must be one line")
        }
        var scanner = TOMLLineScanner(line: Substring(text), number: 1, table: section)
        self = try scanner.loneValue(of: name)
    }
}

/// A syntax error: the 1-based line and what was expected there. The caller adds the file name.
struct TOMLSyntaxError: Error, Sendable, Equatable {
    var line: Int
    /// The full key (`section.key`) the error belongs to, once the key has been read.
    var key: String? = nil
    var message: String
}

extension TOMLDocument {
    /// Longest section name or key, in characters (Unicode scalars). The schema's longest is
    /// under 30; the bound keeps messages and close-match suggestions small for hostile input.
    static let maximumNameLength = 64
    /// Longest line, in characters: room for a description, a backing-track path (PATH_MAX is
    /// 4096 bytes) or an LV2 plugin's saved state (Turtle on one line, tens of kilobytes for
    /// LSP's plugins), short enough that a 5 MB line is refused before it is scanned.
    static let maximumLineLength = 262_144

    /// True when `name` could be written as a bare key or section name (`eq`, `lsp_gate-2`).
    static func isBareName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= maximumNameLength
            && name.unicodeScalars.allSatisfy(TOMLLineScanner.isBareKey)
    }

    /// Parses `text`, stopping at the first syntax error, duplicate key or duplicate section.
    init(parsing text: String) throws(TOMLSyntaxError) {
        var seenSections: [String: Int] = [:]
        var seenKeys: [String: Int] = [:]  // keys of the current table -> line
        // "\r\n" is a single Character in Swift, so it must be named to split CRLF files.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let length = rawLine.unicodeScalars.count
            guard length <= Self.maximumLineLength else {
                throw TOMLSyntaxError(
                    line: index + 1,
                    message: "line is \(length) characters long; lines are at most \(Self.maximumLineLength)")
            }
            var scanner = TOMLLineScanner(line: rawLine, number: index + 1, table: sections.last?.name)
            scanner.skipSpaces()
            if scanner.atEndOfContent { continue }
            if scanner.peek == "[" {
                let (name, line) = try scanner.sectionHeader()
                if let first = seenSections[name] {
                    throw TOMLSyntaxError(line: line, message: "duplicate section [\(name)] (first on line \(first))")
                }
                if root.contains(where: { $0.key == name }) {
                    throw TOMLSyntaxError(
                        line: line, message: "section [\(name)] conflicts with the top-level key '\(name)'")
                }
                seenSections[name] = line
                seenKeys = [:]
                sections.append(TOMLSection(name: name, line: line))
                continue
            }
            let entry = try scanner.keyValue()
            if let first = seenKeys[entry.key] {
                let table = sections.last.map { "[\($0.name)]" } ?? "the top level"
                throw TOMLSyntaxError(
                    line: entry.line, key: scanner.fullKey(entry.key),
                    message: "duplicate key '\(scanner.fullKey(entry.key))' in \(table) (first on line \(first))")
            }
            seenKeys[entry.key] = entry.line
            if sections.isEmpty { root.append(entry) } else { sections[sections.count - 1].entries.append(entry) }
        }
    }
}

/// Reads one line left to right. Works on Unicode scalars so indices are plain integers.
private struct TOMLLineScanner {
    private let chars: [Unicode.Scalar]
    private var position = 0
    let number: Int
    /// The section the line belongs to, to name keys in full.
    let table: String?

    init(line: Substring, number: Int, table: String?) {
        var scalars = Array(line.unicodeScalars)
        if scalars.last == "\r" { scalars.removeLast() }  // a stray CR before a split "\n"
        chars = scalars
        self.number = number
        self.table = table
    }

    func fullKey(_ key: String) -> String { table.map { "\($0).\(key)" } ?? key }

    var peek: Unicode.Scalar? { position < chars.count ? chars[position] : nil }
    /// True at the end of the line or at a comment.
    var atEndOfContent: Bool { peek == nil || peek == "#" }

    mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" { position += 1 }
    }

    private func fail(_ message: String, key: String? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(line: number, key: key.map(fullKey), message: message)
    }

    private static let escapes: [Unicode.Scalar: Unicode.Scalar] = [
        "\"": "\"", "\\": "\\", "n": "\n", "t": "\t", "r": "\r",
    ]

    private func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(chars[range])) }

    static func isBareKey(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    private mutating func bareKey(_ what: String) throws(TOMLSyntaxError) -> String {
        let start = position
        while let c = peek, Self.isBareKey(c) { position += 1 }
        guard position > start else {
            throw fail("expected \(what) (letters, digits, '_' or '-')\(peek.map { ", found '\($0)'" } ?? "")")
        }
        guard position - start <= TOMLDocument.maximumNameLength else {
            throw fail(
                "\(what.dropFirst(2)) is \(position - start) characters long; names are at most \(TOMLDocument.maximumNameLength)"
            )
        }
        return text(start..<position)
    }

    /// Whitespace and an optional comment must follow; anything else is an error.
    private mutating func expectEndOfLine(after what: String, key: String? = nil) throws(TOMLSyntaxError) {
        skipSpaces()
        if !atEndOfContent {
            throw fail("expected end of line or '#' comment after \(what), found '\(peek ?? " ")'", key: key)
        }
    }

    mutating func sectionHeader() throws(TOMLSyntaxError) -> (String, Int) {
        position += 1  // "["
        if peek == "[" { throw fail("arrays of tables ([[...]]) are not supported; expected [section]") }
        skipSpaces()
        let name = try bareKey("a section name")
        skipSpaces()
        if peek == "." { throw fail("nested sections are not supported; expected a single-level [section]") }
        guard peek == "]" else { throw fail("expected ']' to close section [\(name)") }
        position += 1
        try expectEndOfLine(after: "[\(name)]")
        return (name, number)
    }

    /// The whole line as the value of `key` alone (a `set` command's value): the value, then
    /// only spaces and an optional comment.
    mutating func loneValue(of key: String) throws(TOMLSyntaxError) -> TOMLValue {
        skipSpaces()
        let start = position
        let kind = try value(for: key)
        let text = text(start..<position)
        try expectEndOfLine(after: "the value of '\(fullKey(key))'", key: key)
        return TOMLValue(kind: kind, text: text, line: number)
    }

    mutating func keyValue() throws(TOMLSyntaxError) -> TOMLEntry {
        if peek == "\"" || peek == "'" { throw fail("quoted keys are not supported; expected a bare key") }
        let key = try bareKey("a key")
        skipSpaces()
        if peek == "." { throw fail("dotted keys are not supported; put '\(key)' under a [section] header", key: key) }
        guard peek == "=" else {
            // A control character (a NUL) ends the key unseen: name it (PresetError shows it escaped).
            var found = ""
            if let scalar = peek, scalar.value < 0x20 || scalar.value == 0x7F { found = ", found '\(scalar)'" }
            throw fail("expected '=' after key '\(fullKey(key))'" + found, key: key)
        }
        position += 1
        skipSpaces()
        let start = position
        let kind = try value(for: key)
        let text = text(start..<position)
        try expectEndOfLine(after: "the value of '\(fullKey(key))'", key: key)
        return TOMLEntry(key: key, line: number, value: TOMLValue(kind: kind, text: text, line: number))
    }

    private mutating func value(for key: String) throws(TOMLSyntaxError) -> TOMLValue.Kind {
        switch peek {
        case nil, "#": throw fail("expected a value after '\(fullKey(key)) ='", key: key)
        case "\"": return .string(try basicString(for: key))
        case "'": return .string(try literalString(for: key))
        case "[", "{":
            throw fail("arrays and inline tables are not supported; expected a string, number or boolean", key: key)
        default: break
        }
        let start = position
        while let c = peek, c != " ", c != "\t", c != "#" { position += 1 }
        let word = text(start..<position)
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        if let number = Self.number(word) { return number }
        throw fail(
            "expected a string, number or boolean for '\(fullKey(key))', found '\(word)' (strings need quotes)",
            key: key)
    }

    private mutating func literalString(for key: String) throws(TOMLSyntaxError) -> String {
        if chars[position...].starts(with: ["'", "'", "'"]) {
            throw fail("multi-line strings are not supported", key: key)
        }
        position += 1
        let start = position
        while let c = peek, c != "'" { position += 1 }
        guard peek == "'" else {
            throw fail("unterminated string for '\(fullKey(key))'; expected a closing '", key: key)
        }
        position += 1
        return text(start..<position - 1)
    }

    private mutating func basicString(for key: String) throws(TOMLSyntaxError) -> String {
        if chars[position...].starts(with: ["\"", "\"", "\""]) {
            throw fail("multi-line strings are not supported", key: key)
        }
        position += 1
        var result = String.UnicodeScalarView()
        while let c = peek, c != "\"" {
            position += 1
            guard c == "\\" else { result.append(c); continue }
            guard let e = peek else { break }
            position += 1
            if let plain = Self.escapes[e] { result.append(plain); continue }
            guard e == "u" || e == "U" else {
                throw fail("invalid escape '\\\(e)'; allowed: \\\" \\\\ \\n \\t \\r \\uXXXX \\UXXXXXXXX", key: key)
            }
            let count = e == "u" ? 4 : 8
            let hex = text(position..<min(position + count, chars.count))
            guard hex.count == count, hex.allSatisfy(\.isHexDigit), let code = UInt32(hex, radix: 16),
                let scalar = Unicode.Scalar(code)
            else {
                throw fail("invalid escape '\\\(e)\(hex)'; expected \(count) hex digits of a Unicode scalar", key: key)
            }
            position += count
            result.append(scalar)
        }
        guard peek == "\"" else {
            throw fail("unterminated string for '\(fullKey(key))'; expected a closing \"", key: key)
        }
        position += 1
        return String(result)
    }

    /// A TOML decimal integer or float, or nil. Underscores must sit between digits; no leading zeros.
    private static func number(_ word: String) -> TOMLValue.Kind? {
        var body = Substring(word)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        // Split into integer part, optional fraction, optional exponent, checking each piece's digits.
        let exponentIndex = body.firstIndex(where: { $0 == "e" || $0 == "E" })
        let mantissa = body[..<(exponentIndex ?? body.endIndex)]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, digitsOK(parts[0]), parts.count == 1 || digitsOK(parts[1]) else { return nil }
        guard parts[0] == "0" || !parts[0].hasPrefix("0") else { return nil }
        if let e = exponentIndex {
            var exponent = body[body.index(after: e)...]
            if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
            guard digitsOK(exponent) else { return nil }
        }
        let plain = word.replacingOccurrences(of: "_", with: "")
        if parts.count == 1 && exponentIndex == nil {
            return Int(plain).map { .integer($0) }  // nil on overflow
        }
        return Double(plain).flatMap { $0.isFinite ? .float($0) : nil }
    }

    /// Non-empty ASCII digits, with single underscores only between digits.
    private static func digitsOK(_ s: Substring) -> Bool {
        guard let first = s.first, let last = s.last, first.isASCII, first.isNumber, last.isASCII, last.isNumber
        else { return false }
        return s.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "_" } && !s.contains("__")
    }
}
