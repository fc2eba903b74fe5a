/// `--pipewire`: the PipeWire nodes voicerack links itself to, by `node.name` (the names the
/// config fragment gives them; several instances use several fragments and names).
public struct PipeWireSettings: Sendable, Equatable {
    /// The microphone node apps record from (`Audio/Source/Virtual`); voice_out feeds it.
    public var micNode = "voicerack-mic"
    /// The call-audio node apps play the far end into (`Audio/Sink`); its monitor feeds far_in.
    public var callNode = "voicerack-call"
    /// Make the two nodes the session's default source and sink (as `wpctl set-default` does).
    public var makeDefault = false

    public init(micNode: String = "voicerack-mic", callNode: String = "voicerack-call", makeDefault: Bool = false) {
        self.micNode = micNode
        self.callNode = callNode
        self.makeDefault = makeDefault
    }
}
