/// The client's ports: names and directions are a stable contract (users save patchbay
/// definitions and NSM sessions against them), so they live in one table.
///
/// - Realtime: never used there; the process thread only sees the registered port pointers.
public enum PortLayout {
    /// Inputs, in registration order.
    public static let inputs = ["mic_in", "far_in_L", "far_in_R"]
    /// Outputs, in registration order.
    public static let outputs = [
        "voice_out", "speaker_out_L", "speaker_out_R", "monitor_out_L", "monitor_out_R",
    ]
    /// Human-readable names set as JACK metadata pretty-names where the server supports them.
    public static let prettyNames: [String: String] = [
        "mic_in": "Microphone",
        "far_in_L": "Far end L (to speakers, echo reference)",
        "far_in_R": "Far end R (to speakers, echo reference)",
        "voice_out": "Processed voice",
        "speaker_out_L": "Speakers L",
        "speaker_out_R": "Speakers R",
        "monitor_out_L": "Headphone monitor L",
        "monitor_out_R": "Headphone monitor R",
    ]
}
