import Foundation
import Testing
import VoiceSession

@testable import VoicePresets

/// `agc.target_lufs`: read into the session's settings, its range, and its need of the leveller
/// refused with the file, the line and the key.
@Suite struct LoudnessTargetKeyTests {
    @Test("agc.target_lufs is read; 0 and absent mean off")
    func readsTheKey() throws {
        let temporary = try TemporaryPresets()
        let on = try temporary.write("loud", "base = \"podcast\"\n[agc]\ntarget_lufs = -19\n")
        #expect(try temporary.library.load(on).session.levellerTargetLUFS == -19)
        let off = try temporary.write("off", "base = \"podcast\"\n[agc]\ntarget_lufs = 0\n")
        #expect(try temporary.library.load(off).session.levellerTargetLUFS == 0)
        #expect(try temporary.library.load("echo-cancel").session.levellerTargetLUFS == 0)
    }

    @Test("out of range: the line, the key and what is allowed", arguments: [-5.0, -41.0, 3.0])
    func refusesOutOfRange(_ value: Double) throws {
        let temporary = try TemporaryPresets()
        let path = try temporary.write("bad", "base = \"podcast\"\n[agc]\ntarget_lufs = \(value)\n")
        let error = try #require(presetError { () throws(PresetError) in try temporary.library.load(path) })
        #expect(error.line == 3 && error.key == "agc.target_lufs", "\(error)")
        #expect(error.description.contains("0 (off) or -40...-10 LUFS"), "\(error)")
    }

    @Test("without the leveller it is refused, naming agc.enabled")
    func needsTheLeveller() throws {
        let temporary = try TemporaryPresets()
        let path = try temporary.write(
            "flat", "base = \"podcast\"\n[agc]\nenabled = false\ntarget_lufs = -16\n")
        let error = try #require(presetError { () throws(PresetError) in try temporary.library.load(path) })
        #expect(error.line == 4 && error.key == "agc.target_lufs", "\(error)")
        #expect(error.description.contains("needs agc.enabled = true"), "\(error)")
    }
}
