import VoiceControl
import VoicePresets

extension LiveLoop {
    /// `load` and `save` from a surface: from a remote one (`origin`: OSC, the web panel, NSM)
    /// only by name or inside the preset folders (`PresetAccess`), its errors quoting nothing
    /// from the file; from the terminal (`origin` nil) any file. Saves never replace anything
    /// but a preset (`PresetFileWriter`). Nil for other commands.
    ///
    /// - Realtime: never; main thread.
    func presetCommand(_ command: LiveCommand, from origin: String?) -> LiveReply? {
        let access = PresetAccess(
            searchPath: PresetLibrary.standardSearchPath(), presetArgument: request.presetArgument)
        switch command {
        case .loadPreset(let request):
            let file: String
            do { file = origin == nil ? request : try access.fileToLoad(request) } catch {
                return .failure("load: \(error.message)")
            }
            let before = control.running
            let reply = control.loadPreset(file, remote: origin != nil)
            if control.running != before { liveChanges += 1 }
            return reply
        case .savePreset(let request):
            let file: String
            do { file = origin == nil ? request : try access.fileToSave(request) } catch {
                return .failure("save: \(error.message)")
            }
            let reply = control.save(to: file)
            if reply.succeeded { savedChanges = liveChanges }
            return reply
        default:
            return nil
        }
    }
}
