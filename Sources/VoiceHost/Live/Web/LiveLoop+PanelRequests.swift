import Foundation
import Glibc
import VoicePresets
import VoiceRecorder
import VoiceWeb

extension LiveLoop {
    /// Runs one request from the web panel: the same actions as `--control` and the signals,
    /// values checked like preset values. - Realtime: never; main thread.
    func answer(_ request: PanelRequest) -> PanelReply {
        switch request {
        case .set(let key, let value):
            let lines = control.set(key, value)
            let ok = lines.count == 1 && (lines[0] == "\(key) = \(value)" || lines[0] == "\(key) is already \(value)")
            return PanelReply(ok: ok, lines: lines)
        case .record(start: true, _) where recorder.isRecording:
            return PanelReply(ok: false, lines: ["already recording; stop first"])
        case .record(start: true, let names):
            var taps: [Tap] = []
            for name in names {
                guard let tap = Tap(rawValue: name) else {
                    return PanelReply(
                        ok: false, lines: ["unknown tap '\(name)'; taps: " + Tap.allCases.map(\.rawValue).joined(separator: ", ")])
                }
                taps.append(tap)
            }
            let lines = startRecording(taps: taps.isEmpty ? nil : taps)
            return PanelReply(ok: recorder.isRecording, lines: lines)
        case .record(start: false, _):
            guard recorder.isRecording else { return PanelReply(ok: false, lines: ["not recording"]) }
            return PanelReply(ok: true, lines: stopRecording())
        case .pauseBacking:
            guard backing != nil else { return PanelReply(ok: false, lines: ["no backing track (give --backing FILE)"]) }
            return PanelReply(ok: true, lines: [BackingText.toggle(backing).replacingOccurrences(of: "SIGUSR2: ", with: "")])
        case .unmuteMonitor:
            host.rearmFeedbackGuard()
            return PanelReply(ok: true, lines: ["monitor unmuted; the feedback guard watches again"])
        case .muteVoice(let on):
            host.setVoiceMuted(on)
            return PanelReply(ok: true, lines: [on ? "voice_out muted" : "voice_out open"])
        case .loadPreset(let name):
            let (ok, lines) = control.load(name)
            if ok { loadedPreset = name }
            return PanelReply(ok: ok, lines: lines)
        case .savePreset(let name):
            return savePreset(named: name)
        }
    }

    /// Writes the running setup as `NAME.toml` into the first preset folder (`$VOICERACK_PRESETS`,
    /// else the user's), never over an existing file or through a link, and reads it back.
    private func savePreset(named name: String) -> PanelReply {
        // Checked again here: only a bare name reaches the folder.
        guard PanelRequest.isName(name), let folder = PresetLibrary.standardSearchPath().first?.path else {
            return PanelReply(ok: false, lines: ["'\(name)' is not a preset name (letters, digits, - and _)"])
        }
        let path = folder + "/" + name + ".toml"
        guard URL(fileURLWithPath: path).standardized.deletingLastPathComponent().path
            == URL(fileURLWithPath: folder).standardized.path
        else { return PanelReply(ok: false, lines: ["'\(name)' would leave the preset folder"]) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = PresetEdit.presetText(
            host.liveConfiguration, name: name,
            description: "Saved from the web panel (running preset \(loadedPreset))")
        // O_EXCL | O_NOFOLLOW: an existing file or a link of that name is never written through.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "exists; choose another name" : String(cString: strerror(errno))
            return PanelReply(ok: false, lines: ["cannot save \(path): \(reason)"])
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else {
            unlink(path)
            return PanelReply(ok: false, lines: ["cannot save \(path): short write"])
        }
        do {
            _ = try PresetLibrary.standard().check(path)
        } catch {
            return PanelReply(ok: false, lines: ["saved \(path), but it does not read back: \(error)"])
        }
        return PanelReply(ok: true, lines: ["saved the running setup as preset '\(name)' (\(path))"])
    }
}
