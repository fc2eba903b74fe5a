/// voicerack's version, in one place: `voicerack --version`, the man page and the installed
/// files all take it from here. Raise it when a release changes what users see.
enum VoicerackVersion {
    static let string = "0.3.0"
}
