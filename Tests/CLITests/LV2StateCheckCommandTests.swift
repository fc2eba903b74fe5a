import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// A preset's LV2 `state` that lilv cannot load (valid Turtle with no `a pset:Preset` subject,
/// or not Turtle at all) is refused with the key at fault, by `presets check` and by
/// `process`, instead of crashing in lilv.
@Suite("LV2 state checked before lilv reads it (voicerack presets check, process)")
struct LV2StateCheckCommandTests {
    let folder: TemporaryFolder
    let system = ["LV2_PATH": "/usr/lib/lv2"]
    static let dpl = "http://gareus.org/oss/lv2/dpl#mono"

    init() throws { folder = try TemporaryFolder() }

    /// States lilv cannot load, each with the words of the reason.
    static let states: [(state: String, reason: String)] = [
        ("<urn:a> <urn:b> <urn:c> .", "no pset:Preset subject"),
        ("@prefix pset: <http://lv2plug.in/ns/ext/presets#> . [] a pset:Preset .", "no pset:Preset subject"),
        ("<urn:a> <urn:b> \\\"unterminated", "not valid Turtle"),
    ]

    @Test("a bad state fails presets check and process with 65 and the key, no crash", arguments: 0..<states.count)
    func badStateRefused(_ index: Int) throws {
        let (state, reason) = Self.states[index]
        let preset = folder.file("state-\(index).toml")
        try "[chain]\norder = \"peak\"\n[peak]\nlv2 = \"\(Self.dpl)\"\nstate = \"\(state)\"\n".write(
            toFile: preset, atomically: true, encoding: .utf8)
        let check = try CommandRunner.voicerack(["presets", "check", preset], environment: system)
        #expect(check.status == 65, "presets check: \(check.status)\n\(check.standardOutput)\(check.standardError)")
        #expect(check.standardError.contains("\(preset):5:"), "\(check.standardError)")
        #expect(
            check.standardError.contains("peak.state") && check.standardError.contains(reason), "\(check.standardError)"
        )

        let x = Signals.sine(count: 4_800, frequency: 440, sampleRate: 48_000, amplitude: 0.1)
        let mic = try TestFiles.wav(folder.file("mic.wav"), [x], rate: 48_000)
        let run = try CommandRunner.voicerack(
            ["process", "--preset", preset, "--mic", mic, "--out", folder.file("out-\(index).wav"), "--force"],
            environment: system)
        #expect(run.status == 65, "process: \(run.status)\n\(run.standardError)")
        #expect(run.standardError.contains("peak.state"), "\(run.standardError)")
    }
}
