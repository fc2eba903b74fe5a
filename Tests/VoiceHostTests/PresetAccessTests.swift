import Foundation
import Testing
import VoicePresets
import VoiceTestSupport

@testable import VoiceHost

/// `PresetAccess` and `PresetFileWriter`: what a remote surface may name, and what a save may
/// replace.
@Suite struct PresetAccessTests {
    let folder: TemporaryFolder
    let user: String
    let shipped: String
    let access: PresetAccess

    init() throws {
        folder = try TemporaryFolder()
        user = folder.file("user")
        shipped = folder.file("shipped")
        for path in [user, shipped, folder.file("elsewhere")] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try "description = \"shipped\"\n".write(toFile: shipped + "/raw.toml", atomically: false, encoding: .utf8)
        access = PresetAccess(
            searchPath: [PresetDirectory(path: user, origin: .user), PresetDirectory(path: shipped, origin: .shipped)],
            presetArgument: nil)
    }

    func refusal(_ body: () throws(PresetAccess.Refusal) -> String) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.message
        }
    }

    @Test func namesResolveInSearchOrderAndSavesGoToTheUserFolder() throws {
        #expect(try access.fileToLoad("raw") == PresetAccess.realPath(shipped + "/raw.toml"))
        #expect(try access.fileToSave("mine") == PresetAccess.realPath(user)! + "/mine.toml")
        #expect(refusal { () throws(PresetAccess.Refusal) in try access.fileToSave(shipped + "/raw.toml") } != nil)
        #expect(
            refusal { () throws(PresetAccess.Refusal) in try access.fileToLoad("absent") }?.contains("not found")
                == true)
    }

    @Test(arguments: ["../x", ".hidden", "a b", "", "-rf", "x.y", "/etc/passwd", "/etc/passwd.toml"])
    func pathsAndOddNamesAreRefused(_ request: String) {
        #expect(refusal { () throws(PresetAccess.Refusal) in try access.fileToLoad(request) } != nil)
        #expect(refusal { () throws(PresetAccess.Refusal) in try access.fileToSave(request) } != nil)
    }

    @Test func theFolderOfAPresetFileNamedOnTheCommandLineCounts() throws {
        let elsewhere = folder.file("elsewhere")
        try "description = \"x\"\n".write(toFile: elsewhere + "/mine.toml", atomically: false, encoding: .utf8)
        let named = PresetAccess(searchPath: [], presetArgument: elsewhere + "/mine.toml")
        #expect(try named.fileToLoad(elsewhere + "/mine.toml") == PresetAccess.realPath(elsewhere + "/mine.toml"))
        #expect(try named.fileToSave("other") == PresetAccess.realPath(elsewhere)! + "/other.toml")
    }

    @Test func theWriterReplacesPresetsOnlyAndLeavesNoTemporary() throws {
        let preset = user + "/p.toml"
        try PresetFileWriter.write("description = \"one\"\n", to: preset)
        try PresetFileWriter.write("description = \"two\"\n", to: preset)
        #expect(try String(contentsOfFile: preset, encoding: .utf8) == "description = \"two\"\n")
        // A preset with a bad value is still one: a save repairs it (NSM's copy, edited by hand).
        try "[output]\ngain_db = 99\n".write(toFile: preset, atomically: false, encoding: .utf8)
        try PresetFileWriter.write("description = \"three\"\n", to: preset)
        let other = user + "/other.toml"
        try "export PATH=/x\n".write(toFile: other, atomically: false, encoding: .utf8)
        #expect(throws: PresetFileWriter.Failure.self) {
            try PresetFileWriter.write("description = \"x\"\n", to: other)
        }
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "export PATH=/x\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: user).sorted() == ["other.toml", "p.toml"])
    }
}
