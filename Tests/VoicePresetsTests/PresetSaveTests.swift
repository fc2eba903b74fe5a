import Foundation
import Testing
import VoiceControl
import VoiceEngine

@testable import VoicePresets

/// Saving a running setup as a preset (the web panel's "save") and which keys need a restart.
@Suite("preset save and restart-only keys")
struct PresetSaveTests {
    /// `show`'s keys for the shipped `podcast` preset with the output gain moved to -7.5.
    func runningKeys() throws -> [LiveKey] {
        var configuration = try PresetLibrary(directories: [shippedPresetsDirectory()]).load("podcast").configuration
        configuration.outputGainDB = -7.5
        return PresetEdit.liveKeys(configuration)
    }

    @Test("saves NAME.toml that reads back to the running setup; never over a file, never outside the folder")
    func save() throws {
        let folder = try TemporaryPresets()
        let keys = try runningKeys()
        let reply = PresetEdit.save(keys, as: "my-show_1", in: folder.directory, description: "test")
        #expect(reply.succeeded, "\(reply.lines)")
        let saved = try PresetLibrary(directories: [folder.directory]).load("my-show_1").configuration
        #expect(PresetEdit.liveKeys(saved) == keys)
        #expect(saved.outputGainDB == -7.5)

        let again = PresetEdit.save(keys, as: "my-show_1", in: folder.directory, description: "test")
        #expect(!again.succeeded && again.lines[0].contains("exists"))
        for name in ["../escaped", "/tmp/escaped", "a.toml", "", "-x", String(repeating: "a", count: 65)] {
            let refused = PresetEdit.save(keys, as: name, in: folder.directory, description: "test")
            #expect(!refused.succeeded && refused.lines[0].contains("not a preset name"), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.directory + "/../escaped.toml"))
        // A link of that name is not written through.
        let target = folder.directory + "/elsewhere.txt"
        #expect(symlink(target, folder.directory + "/linked.toml") == 0)
        #expect(!PresetEdit.save(keys, as: "linked", in: folder.directory, description: "test").succeeded)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test(
        "restart-only keys: the engine's shape (chain, frame, canceller, high-pass); gains and effect parameters are live"
    )
    func restartKeys() {
        let restart = PresetEdit.restartKeys()
        for key in ["chain.order", "echo_canceller.enabled", "echo_canceller.tail_ms", "input.highpass_hz"] {
            #expect(restart.contains(key), "\(key)")
        }
        for key in [
            "output.gain_db", "input.gain_db", "monitor.master_db", "backing.level_db", "compressor.threshold_dbfs",
        ] {
            #expect(!restart.contains(key), "\(key)")
        }
    }
}
