import Foundation
import Testing

/// `/voicerack/preset/save` and `/load` from a real OSC peer reach only the preset folders:
/// `~/.bashrc`, `/etc/passwd`, a device node, a FIFO, a symlink out of the folder and a file that
/// is not a preset are refused with a clear `/error`, nothing is written, nothing of a file is
/// quoted back or logged; a preset saved and loaded by name is logged at info with its path.
extension LiveClientTests {
    /// Starts `voicerack run --osc 0` with `home` as its home folder (so its user preset folder
    /// is `home/.config/voicerack/presets`); returns the child once it runs.
    func launchWithHome(_ home: String, on server: JACKServer) throws -> ChildProcess {
        let environment: [String: String?] = ["HOME": home, "XDG_CONFIG_HOME": nil, "VOICERACK_PRESETS": nil]
        return try launchRecordingClient(on: server, ["--osc", "0"], environment: environment).child
    }

    @Test(
        "OSC preset save/load: paths outside the preset folders, devices, FIFOs, symlinks out and non-presets are refused; names work and are logged",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscPresetFilesConfined() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let home = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let files = FileManager.default
        let presets = home + "/.config/voicerack/presets"
        try files.createDirectory(atPath: presets, withIntermediateDirectories: true)
        try files.createDirectory(atPath: home + "/outside", withIntermediateDirectories: true)
        let bashrc = "# the user's start-up file\n"
        try bashrc.write(toFile: home + "/.bashrc", atomically: false, encoding: .utf8)
        let secret = "Hunter2-Xy9\n"
        try secret.write(toFile: presets + "/notes.toml", atomically: false, encoding: .utf8)
        let target = "description = \"outside the folder\"\n"
        try target.write(toFile: home + "/outside/target.toml", atomically: false, encoding: .utf8)
        try files.createSymbolicLink(atPath: presets + "/link.toml", withDestinationPath: home + "/outside/target.toml")
        #expect(mkfifo(presets + "/fifo.toml", 0o644) == 0)
        // 1:3 is /dev/null's device number (makedev is a C macro: major << 8 | minor for small numbers).
        let device = mknod(presets + "/null.toml", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0
        if !device { print("mknod not permitted here: the device-node case is skipped") }

        let voicerack = try launchWithHome(home, on: server)
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        func refused(_ address: String, _ argument: String, saying words: String) throws {
            let answer = try Self.oscAsk(port, "/voicerack/preset/" + address, ["s:" + argument])
            #expect(answer.path == "/voicerack/error", "\(address) \(argument): \(answer)")
            #expect(answer.text.contains(words), "\(address) \(argument): \(answer.text)")
            #expect(!answer.text.contains("Hunter2") && !answer.text.contains("root:"), "\(answer.text)")
        }
        func type(_ path: String) -> mode_t {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        }

        try refused("save", home + "/.bashrc", saying: "outside the preset folders")
        try refused("save", presets + "/../../../.bashrc", saying: "outside the preset folders")
        try refused("load", home + "/.bashrc", saying: "outside the preset folders")
        try refused("load", "/etc/passwd", saying: "outside the preset folders")
        try refused("save", "link", saying: "symbolic link")
        try refused("load", "link", saying: "outside the preset folders")
        try refused("save", "fifo", saying: "device, FIFO or socket")
        if device { try refused("save", "null", saying: "device, FIFO or socket") }
        try refused("save", "notes", saying: "not a voicerack preset")
        try refused("load", "notes", saying: "notes.toml:1: not a valid preset")
        #expect(try String(contentsOfFile: home + "/.bashrc", encoding: .utf8) == bashrc)
        #expect(try String(contentsOfFile: home + "/outside/target.toml", encoding: .utf8) == target)
        #expect(try String(contentsOfFile: presets + "/notes.toml", encoding: .utf8) == secret)
        #expect(type(presets + "/link.toml") == S_IFLNK && type(presets + "/fifo.toml") == S_IFIFO)
        if device { #expect(type(presets + "/null.toml") == S_IFCHR) }

        let saved = try Self.oscAsk(port, "/voicerack/preset/save", ["s:mine"])
        #expect(saved.isReply && saved.text.contains(presets + "/mine.toml"), "\(saved)")
        let loaded = try Self.oscAsk(port, "/voicerack/preset/load", ["s:mine"])
        #expect(loaded.isReply && loaded.text.contains(presets + "/mine.toml"), "\(loaded)")
        #expect(type(presets + "/mine.toml") == S_IFREG)

        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
        let log = voicerack.output
        #expect(log.contains("saved the running setup to \(presets)/mine.toml"), "\(log)")
        #expect(log.contains("loaded \(presets)/mine.toml"), "\(log)")
        #expect(!log.contains("Hunter2") && !log.contains("root:"), "\(log)")
    }
}
