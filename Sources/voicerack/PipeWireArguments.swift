import ArgumentParser
import VoiceHost

/// The `--pipewire` options of `run`: voicerack linked between a call app's nodes and the sound
/// card on a PipeWire desktop (docs/pipewire.md).
///
/// - Realtime: never; main thread.
struct PipeWireArguments: ParsableArguments {
    @Flag(
        name: .long,
        help: "Link the call app's nodes and the devices (pw-jack).")
    var pipewire = false

    @Option(
        name: .long, help: ArgumentHelp("Microphone node's node.name.", valueName: "node"))
    var pipewireMic = "voicerack-mic"

    @Option(
        name: .long, help: ArgumentHelp("Call-audio node's node.name.", valueName: "node"))
    var pipewireCall = "voicerack-call"

    @Flag(
        name: .long,
        help: "Make the voicerack nodes the default devices.")
    var makeDefault = false

    /// The settings, nil without `--pipewire`; throws when a PipeWire option comes without it or
    /// beside `--no-auto-connect`.
    func settings(noAutoConnect: Bool) throws -> PipeWireSettings? {
        guard pipewire else {
            if makeDefault || pipewireMic != "voicerack-mic" || pipewireCall != "voicerack-call" {
                throw ValidationError("--make-default, --pipewire-mic and --pipewire-call need --pipewire")
            }
            return nil
        }
        if noAutoConnect { throw ValidationError("--pipewire links ports; --no-auto-connect links none: give one") }
        if pipewireMic == pipewireCall { throw ValidationError("--pipewire-mic and --pipewire-call name one node") }
        return PipeWireSettings(micNode: pipewireMic, callNode: pipewireCall, makeDefault: makeDefault)
    }
}
