import ArgumentParser
import Foundation
import VoiceHost
import VoicePresets

/// Prints an error message to standard error, prefixed with the program name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("voicerack: error: \(message)\n".utf8))
}

/// Prints a note to standard error.
func printNote(_ message: String) {
    FileHandle.standardError.write(Data("voicerack: note: \(message)\n".utf8))
}

/// Reports `error` and returns the exit code for it: HostError and PresetError carry their own
/// sysexits code; anything else is an internal failure (70, EX_SOFTWARE).
func failureExit(reporting error: any Error) -> ExitCode {
    switch error {
    case let e as HostError:
        printError(e.message)
        return ExitCode(e.exitCode)
    case let e as PresetError:
        printError(e.description)
        return ExitCode(65)
    default:
        printError("\(error)")
        return ExitCode(70)
    }
}
