/// Makes text from outside (a `--control` line, a preset's value) safe to echo to a terminal.
///
/// Control characters (C0, DEL, C1) would move the cursor, clear the screen, set the window
/// title or ring the bell; bidirectional overrides would reorder what follows. Each becomes a
/// visible escape: `\t`, `\r`, `\n`, `\x1b`, `\u{202e}`; a backslash stays a backslash.
///
/// - Realtime: never (builds strings).
public enum ControlText {
    /// `text` with every control or bidirectional-formatting scalar written as an escape.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            default:
                let hex = String(scalar.value, radix: 16)
                result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
            }
        }
        return result
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F
    }
}
