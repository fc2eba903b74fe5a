import Foundation
import Testing
import VoiceEngine

@testable import VoicePresets

/// User presets, base resolution, shadowing and the standard search path.
@Suite struct PresetLibraryTests {
    @Test func userPresetExtendsAShippedOne() throws {
        let temporary = try TemporaryPresets()
        try temporary.write(
            "my-room",
            """
            description = "echo-cancel for a big room"
            base = "echo-cancel"

            [echo_canceller]
            tail_ms = 400   # a live room
            """)
        let preset = try temporary.library.load("my-room")
        var expected = try temporary.library.load("echo-cancel").configuration
        #expect(expected.tailMilliseconds == 200)
        expected.tailMilliseconds = 400
        #expect(preset.configuration == expected)
        #expect(preset.base == "echo-cancel")
        #expect(preset.description == "echo-cancel for a big room")
        #expect(preset.source == temporary.directory + "/my-room.toml")
    }

    @Test func basesApplyOutermostFirst() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("one", "[agc]\nenabled = true\nmax_gain_db = 3\n[output]\ngain_db = 1\n")
        try temporary.write("two", "base = \"one\"\n[agc]\nmax_gain_db = 4\n")
        try temporary.write("three", "base = \"two\"\n[output]\ngain_db = -2.5\n")
        let c = try temporary.library.load("three").configuration
        #expect(c.leveller)
        #expect(c.levellerMaxGainDB == 4)
        #expect(c.outputGainDB == -2.5)
        #expect(c.tailMilliseconds == EngineConfiguration().tailMilliseconds)  // untouched default
        #expect(try temporary.library.load("three").description == "")  // not inherited
    }

    @Test func earlierDirectoriesWinAndMayExtendWhatTheyShadow() throws {
        let temporary = try TemporaryPresets()
        // A user `echo-cancel` that extends the shipped `echo-cancel` it shadows.
        try temporary.write("echo-cancel", "description = \"mine\"\nbase = \"echo-cancel\"\n[input]\ngain_db = 6\n")
        let preset = try temporary.library.load("echo-cancel")
        #expect(preset.description == "mine")
        #expect(preset.configuration.inputGainDB == 6)
        #expect(preset.configuration.echoCancellation && preset.configuration.tailMilliseconds == 200)
        let summary = temporary.library.summaries().first { $0.name == "echo-cancel" }
        #expect(summary?.description == "mine")
        #expect(summary?.source == temporary.directory + "/echo-cancel.toml")
        // The shipped echo-cancel-strong extends echo-cancel by name: the user's, tuning and all.
        let strong = try temporary.library.load("echo-cancel-strong").configuration
        #expect(strong.inputGainDB == 6 && strong.coherenceSuppression == 0.5)
    }

    @Test func namesAreSortedUniqueTomlFiles() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("zeta", "")
        try temporary.write("raw", "description = \"shadow\"\n")
        try "not a preset".write(toFile: temporary.directory + "/notes.txt", atomically: true, encoding: .utf8)
        let names = temporary.library.names()
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        #expect(names.contains("zeta") && names.contains("podcast") && !names.contains("notes"))
        #expect(PresetLibrary(directories: ["/nonexistent/voicerack"], pluginHost: lv2Host).names().isEmpty)
    }

    @Test func emptyPresetIsTheDefaults() throws {
        let temporary = try TemporaryPresets()
        let path = try temporary.write("empty", "# nothing\n")
        #expect(try temporary.library.check(path).configuration == EngineConfiguration())
    }

    @Test func summariesFlagInvalidPresets() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("broken", "[agc\n")
        let summary = temporary.library.summaries().first { $0.name == "broken" }
        #expect(summary?.description.hasPrefix("(invalid: ") == true)
        #expect(summary?.description.contains("broken.toml:1:") == true)
    }

    @Test func standardSearchPath() throws {
        let repository = URL(fileURLWithPath: shippedPresetsDirectory()).deletingLastPathComponent().path
        let executable = repository + "/.build/debug/voicerack"
        let directories = PresetLibrary.standardDirectories(
            environment: ["VOICERACK_PRESETS": "/a:/b::/a", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"],
            home: "/ignored", executable: executable)
        #expect(
            directories == [
                "/a", "/b", "/xdg/voicerack/presets", repository + "/.build/share/voicerack/presets",
                shippedPresetsDirectory(),
            ])
        let plain = PresetLibrary.standardDirectories(
            environment: ["XDG_CONFIG_HOME": "relative"], home: "/home/u", executable: nil)
        #expect(plain == ["/home/u/.config/voicerack/presets"])
    }

    @Test func standardFindsTheShippedPresets() {
        // The test runner lives under the scratch path inside the repository, like .build/debug/voicerack.
        #expect(
            Set(["echo-cancel", "podcast", "raw"]).isSubset(of: PresetLibrary.standard(pluginHost: lv2Host).names()))
    }
}
