import ArgumentParser
import VoiceEngine
import VoiceHost

/// The `--pipewire` options of `run`: voicerack linked between a call app's nodes and the sound
/// card on a PipeWire desktop (docs/pipewire.md).
///
/// - Realtime: never; main thread.
struct PipeWireArguments: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Under PipeWire's JACK (pw-jack): link voice_out to the microphone node, the call node's monitor to far_in_L/R, speaker_out_L/R to the output device and the input device to mic_in, and make those links again whenever their ports appear (PipeWire or WirePlumber restarted, a new default device). The nodes come from the installed pipewire.conf.d fragment. On plain jackd it auto-connects as usual. A preset's [pipewire] enabled = true does the same."
    )
    var pipewire = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "node.name of the microphone node (--pipewire; default: the preset's pipewire.mic_node, voicerack-mic).",
            valueName: "node"))
    var pipewireMic: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "node.name of the call-audio node (--pipewire; default: the preset's pipewire.call_node, voicerack-call).",
            valueName: "node"))
    var pipewireCall: String?

    @Flag(
        name: .long,
        help:
            "With --pipewire: make the call node the default sink and the microphone node the default source, as the user's choice in WirePlumber (as wpctl set-default does). Without it the defaults are left as they are."
    )
    var makeDefault = false

    /// Throws when the flags contradict each other, whatever the preset says.
    func validate(noAutoConnect: Bool) throws {
        if pipewire, noAutoConnect {
            throw ValidationError("--pipewire links ports; --no-auto-connect links none: give one")
        }
        if let pipewireMic, pipewireMic == pipewireCall {
            throw ValidationError("--pipewire-mic and --pipewire-call name one node")
        }
    }

    /// The settings for the preset's `[pipewire]` section with these flags over it; nil when
    /// neither `--pipewire` nor `pipewire.enabled` asks for them, or `--no-auto-connect` turns
    /// all linking off for this run. Throws when a PipeWire option comes without either.
    func settings(noAutoConnect: Bool, preset configuration: EngineConfiguration) throws -> PipeWireSettings? {
        guard pipewire || configuration.pipeWireEnabled, !noAutoConnect else {
            if makeDefault || pipewireMic != nil || pipewireCall != nil {
                throw ValidationError(
                    "--make-default, --pipewire-mic and --pipewire-call need --pipewire (or the preset's pipewire.enabled = true)"
                )
            }
            return nil
        }
        let settings = PipeWireSettings(
            micNode: pipewireMic ?? configuration.pipeWireMicNode,
            callNode: pipewireCall ?? configuration.pipeWireCallNode,
            makeDefault: makeDefault || configuration.pipeWireMakeDefault)
        if settings.micNode == settings.callNode {
            throw ValidationError(
                "the microphone node and the call node are both '\(settings.micNode)'; give two nodes")
        }
        return settings
    }
}
