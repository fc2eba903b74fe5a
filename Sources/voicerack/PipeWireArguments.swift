import ArgumentParser
import VoiceHost

/// The `--pipewire` options of `run`: voicerack linked between a call app's nodes and the sound
/// card on a PipeWire desktop (docs/pipewire.md).
///
/// - Realtime: never; main thread.
struct PipeWireArguments: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Under PipeWire's JACK (pw-jack): link voice_out to the microphone node, the call node's monitor to far_in_L/R, speaker_out_L/R to the output device and the input device to mic_in, and make those links again whenever their ports appear (PipeWire or WirePlumber restarted, a new default device). The nodes come from the installed pipewire.conf.d fragment. On plain jackd it auto-connects as usual."
    )
    var pipewire = false

    @Option(
        name: .long, help: ArgumentHelp("node.name of the microphone node (--pipewire).", valueName: "node"))
    var pipewireMic = "voicerack-mic"

    @Option(
        name: .long, help: ArgumentHelp("node.name of the call-audio node (--pipewire).", valueName: "node"))
    var pipewireCall = "voicerack-call"

    @Flag(
        name: .long,
        help:
            "With --pipewire: make the call node the default sink and the microphone node the default source, as the user's choice in WirePlumber (as wpctl set-default does). Without it the defaults are left as they are."
    )
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
