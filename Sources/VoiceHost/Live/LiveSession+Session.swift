import Foundation
import Glibc
import VoiceControl
import VoiceJACK
import VoicePresets

extension LiveSession {
    /// Waits for the session manager to open a session, taking signals meanwhile: nil when
    /// SIGINT or SIGTERM came first (nothing was opened, so nothing to finalise).
    ///
    /// - Realtime: never; main thread.
    static func waitForSession(
        _ manager: any SessionManager, _ signals: SignalWaiter
    ) throws(HostError) -> ManagedSession? {
        while true {
            if let failure = manager.announceFailure { throw HostError(.unavailable, "NSM: \(failure)") }
            if let session = manager.takeOpenRequest() { return session }
            if let signal = signals.wait(seconds: 0.1), signal.number == SIGINT || signal.number == SIGTERM {
                StatusOutput.writeOut("voicerack: stopping before the session manager opened a session\n")
                return nil
            }
        }
    }
}

extension LiveRequest {
    /// Takes the session a manager opened: its folder (made when new), its preset copy (written
    /// from the running preset when new, else read: the session's own setup wins), its
    /// recordings folder, and the client id as the JACK client's name.
    ///
    /// - Realtime: never; main thread.
    /// Returns what it did, for the log.
    mutating func open(_ session: ManagedSession) throws(ManagedSession.OpenFailure) -> String {
        try Self.check(session)
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: session.recordingsFolder, withIntermediateDirectories: true)
        } catch {
            throw .init(
                .createFailed,
                "cannot make the session folder \(session.recordingsFolder): \(error.localizedDescription)")
        }
        var done = "NSM: session '\(session.displayName)': running its preset copy \(session.presetPath)"
        if !files.fileExists(atPath: session.presetPath) {
            done =
                "NSM: new session '\(session.displayName)': wrote its preset copy \(session.presetPath) from preset \(presetName)"
            let copy = Preset(
                name: "preset",
                description: "voicerack in session '\(session.displayName)', from preset \(presetName).",
                source: presetArgument ?? presetName, base: nil,
                settings: PresetSettings(engine: configuration, session: sessionSettings))
            do {
                try PresetFileWriter.write(PresetRenderer.toml(copy, pluginHost: pluginHost), to: session.presetPath)
            } catch {
                throw .init(.createFailed, error.message)
            }
        }
        let loaded: Preset
        do {
            loaded = try PresetLibrary.standard(pluginHost: pluginHost).load(session.presetPath)
        } catch {
            throw .init(.badProject, "the session's preset does not load: \(error)")
        }
        configuration = loaded.configuration
        sessionSettings = loaded.session
        presetName = session.displayName
        presetArgument = session.presetPath
        options.name = session.clientID
        recording.folder = session.recordingsFolder
        return done + "; recordings go to \(session.recordingsFolder)"
    }
}

extension LiveRequest {
    /// Refuses what a manager may send but voicerack cannot use: a client id that is no JACK
    /// client name (as `--name` is checked: too long, with ':', empty), and a path that is not an
    /// absolute folder below the root (an empty path or `/` would put `preset.toml` and
    /// `recordings` into the file system's root). The root reached through a symlink
    /// (`/proc/self/root`, `link/..`) is the root too, and a NUL byte would cut the path short
    /// when it reaches the system.
    ///
    /// - Realtime: never; main thread.
    static func check(_ session: ManagedSession) throws(ManagedSession.OpenFailure) {
        if let problem = JACKNames.clientNameProblem(session.clientID) {
            throw .init(.general, "the session's client id cannot name the JACK client: \(problem)")
        }
        guard !session.path.contains("\0") else {
            throw .init(.createFailed, "the session path holds a NUL byte; it is not a folder for a client")
        }
        let folder = URL(fileURLWithPath: session.path).standardized.path
        guard session.path.hasPrefix("/"), folder != "/", !isRoot(session.path) else {
            throw .init(
                .createFailed,
                "the session path '\(session.path)' is not a folder for a client (an absolute path below /)")
        }
    }

    /// Whether `path` exists and is the file system's root (the same device and inode as `/`).
    private static func isRoot(_ path: String) -> Bool {
        var target = stat()
        var root = stat()
        return stat(path, &target) == 0 && stat("/", &root) == 0 && target.st_dev == root.st_dev
            && target.st_ino == root.st_ino
    }
}
