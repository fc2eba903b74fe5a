import ArgumentParser
import VoiceHost
import VoicePipeWire
import VoiceSession

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
        name: .long,
        help: ArgumentHelp("Microphone node's node.name (or pipewire.mic_node).", valueName: "node"))
    var pipewireMic: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Call-audio node's node.name (or pipewire.call_node).", valueName: "node")
    )
    var pipewireCall: String?

    @Flag(
        name: .long,
        help: "Make the voicerack nodes the default devices.")
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
    func settings(noAutoConnect: Bool, preset configuration: SessionSettings) throws -> PipeWireSettings? {
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
