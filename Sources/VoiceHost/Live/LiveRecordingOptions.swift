import Foundation
import VoiceFiles
import VoiceRecorder

/// What `voicerack run` records: taps with file-name templates, the format, the buffer and
/// whether existing files may be overwritten.
///
/// - Realtime: never (a value the CLI builds on the main thread).
public struct LiveRecordingOptions: Sendable {
    /// One tap to record and its file-name template (`{date}`, `{time}`, `{client}`, `{tap}`).
    public struct Target: Sendable, Equatable {
        public var tap: Tap
        public var template: String

        public init(tap: Tap, template: String) {
            self.tap = tap
            self.template = template
        }
    }

    /// The file SIGUSR1 records to when no `--record` was given (the voice tap, current folder):
    /// named after the JACK client, `voicerack-2026-11-27-143012-voice.wav` by default (the
    /// client's name once, not `voicerack-voicerack-...`).
    public static let defaultTemplate = "{client}-{date}-{time}-{tap}.wav"

    /// What `--record` asked for; empty means "nothing until SIGUSR1, then the default".
    public var targets: [Target] = []
    /// `--format`: overrides the format the extension suggests.
    public var format: AudioFormat?
    /// `--record-buffer`: seconds of audio held while the disk is slow.
    public var bufferSeconds: Double = 10
    /// `--force`: overwrite existing files.
    public var force = false
    /// The folder relative names are made in (a session manager's session); nil: the current one.
    public var folder: String?

    public init() {}

    /// Parses `--record` values: `FILE` (the voice) or `TAP=FILE`.
    public static func parse(_ specs: [String]) throws(HostError) -> [Target] {
        var targets: [Target] = []
        for text in specs {
            guard let (tap, path) = Tap.parse(text) else {
                throw HostError(
                    .usage,
                    "--record \(text): expected FILE or TAP=FILE with TAP one of "
                        + Tap.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if let unknown = RecordingName.unknownPlaceholder(in: path) {
                throw HostError(
                    .usage,
                    "--record \(text): \(unknown) is not a placeholder; use "
                        + RecordingName.placeholders.joined(separator: ", "))
            }
            targets.append(Target(tap: tap, template: path))
        }
        return targets
    }

    /// The targets a start records: the given ones, else the voice tap with the default
    /// template (its extension following `--format` when given).
    var effectiveTargets: [Target] {
        guard targets.isEmpty else { return targets }
        return [Target(tap: .voice, template: defaultTemplate)]
    }

    /// The default template, its extension following `--format` when given.
    private var defaultTemplate: String {
        guard let format else { return Self.defaultTemplate }
        return String(Self.defaultTemplate.dropLast(3)) + format.fileExtension
    }

    /// The targets for a start that names its taps (`record TAP...` from a control surface):
    /// each tap's `--record` file when one was given, else the default name.
    func targets(for taps: [Tap]) -> [Target] {
        taps.map { tap in targets.first { $0.tap == tap } ?? Target(tap: tap, template: defaultTemplate) }
    }

    /// Tap names as a control surface gives them: known, each once, at least one (64 otherwise).
    public static func taps(named names: [String]) throws(HostError) -> [Tap] {
        guard !names.isEmpty else { throw HostError(.usage, "name at least one tap") }
        var taps: [Tap] = []
        for name in names {
            guard let tap = Tap(rawValue: name) else {
                throw HostError(
                    .usage, "'\(name)' is not a tap; use " + Tap.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard !taps.contains(tap) else { throw HostError(.usage, "tap \(name) named twice") }
            taps.append(tap)
        }
        return taps
    }
}
