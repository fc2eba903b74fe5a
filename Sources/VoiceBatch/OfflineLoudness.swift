import Foundation
import VoiceEngine
import VoiceFiles
import VoiceHost
import VoiceLoudness
import VoiceSession

/// An offline run followed by a loudness pass: the output is processed into a hidden file
/// beside OUT, measured (and normalised when a target is given) there, and only then renamed to
/// OUT, so OUT never holds audio that was not normalised, even after a kill.
///
/// - Realtime: never (the offline session's thread).
public enum OfflineLoudness {
    /// What the loudness pass found and did.
    public struct Outcome: Sendable {
        /// The figures of the processed output, before any gain.
        public var before: LoudnessReading
        /// The figures of OUT as written.
        public var after: LoudnessReading
        /// The normalisation, when a target was given.
        public var normalisation: NormalisationResult?
    }

    /// Runs `request`, then measures OUT and, with `target`, normalises it. OUT must be a
    /// regular file path (not a device or FIFO): it is written by renaming.
    public static func run(
        _ request: OfflineRequest, configuration: EngineConfiguration, session: SessionSettings,
        target: LoudnessTarget?, progress: ((Double) -> Void)? = nil
    ) throws(HostError) -> (report: OfflineReport, loudness: Outcome) {
        let output = try finalPath(request.outputPath)
        try OfflineProcessor.checkOutputPath(output, force: request.force)
        let format = try OfflineProcessor.outputFormat(request)
        var staged = request
        staged.outputPath = LoudnessNormaliser.temporaryPath(for: output)
        staged.format = format
        staged.force = true
        let report = try OfflineProcessor.run(
            staged, configuration: configuration, session: session, progress: progress)
        do {
            let outcome: Outcome
            if let target {
                let result = try LoudnessNormaliser.normalise(staged.outputPath, format: format, to: target)
                outcome = Outcome(before: result.before, after: result.after, normalisation: result)
            } else {
                let reading = try LoudnessNormaliser.measure(staged.outputPath)
                outcome = Outcome(before: reading, after: reading, normalisation: nil)
            }
            guard rename(staged.outputPath, output) == 0 else {
                throw HostError(
                    .cannotCreate, "cannot move the output into place as \(output): \(String(cString: strerror(errno)))"
                )
            }
            return (report, outcome)
        } catch let error as LoudnessError {
            unlink(staged.outputPath)
            throw HostError(error.isDataError ? .data : .io, "loudness pass: \(error.description)")
        } catch let error as HostError {
            unlink(staged.outputPath)
            throw error
        } catch {
            unlink(staged.outputPath)
            throw HostError(.io, "loudness pass: \(error)")
        }
    }

    /// OUT with a symbolic link followed (the link keeps pointing at the new file); refuses
    /// what cannot be replaced by a rename.
    static func finalPath(_ path: String) throws(HostError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return path }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw HostError(
                .usage,
                "output \(path) is not a regular file; a loudness pass writes OUT by renaming a finished file over it")
        }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
