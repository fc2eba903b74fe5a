/// What a control surface may call a preset: the name of a file in a preset folder, never a path.
///
/// - Realtime: never; any thread.
public enum PresetName {
    /// A file-name-safe name: 1 to 64 of `A-Z a-z 0-9 - _`, not starting with `-`. No dots and
    /// no slashes, so it names nothing outside its folder.
    public static func isValid(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
    }
}
