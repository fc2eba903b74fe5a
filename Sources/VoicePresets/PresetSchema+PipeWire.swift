import VoiceSession

extension PresetSchema {
    /// `[pipewire]`: voicerack on a PipeWire desktop (`voicerack run`; --pipewire and its flags
    /// override these for one run).
    static let pipeWireKeys: [PresetKey] = [
        .boolean(
            "pipewire", "enabled",
            \.session.pipeWireEnabled,
            "Under PipeWire's JACK: link voice_out to the microphone node, the call node's monitor to far_in_L/R, speaker_out_L/R to the output device and the input device to mic_in, and keep those links (as --pipewire)."
        ),
        nodeName("mic_node", \.session.pipeWireMicNode, "node.name of the microphone node apps record from."),
        nodeName(
            "call_node", \.session.pipeWireCallNode, "node.name of the call-audio node apps play the far end into."),
        .boolean(
            "pipewire", "make_default", \.session.pipeWireMakeDefault,
            "Make the call node the default sink and the microphone node the default source (as --make-default)."),
        noticeText(
            "muted_notice", \.session.mutedNoticeSummary,
            "Desktop notification when you talk while muted (its title); empty = none, the log only."),
        noticeText("muted_notice_body", \.session.mutedNoticeBody, "The notification's text under its title."),
    ]

    private static func nodeName(
        _ name: String, _ field: WritableKeyPath<PresetSettings, String> & Sendable, _ help: String
    ) -> PresetKey {
        text(name, field, help, allowed: "a PipeWire node.name (one line, no ':')") { text in
            if text.isEmpty { return "must name a node" }
            return text.contains(where: \.isNewline) || text.contains(":") ? "must be one line with no ':'" : nil
        }
    }

    private static func noticeText(
        _ name: String, _ field: WritableKeyPath<PresetSettings, String> & Sendable, _ help: String
    ) -> PresetKey {
        text(name, field, help, allowed: "\"\" or one line of text") {
            $0.contains(where: \.isNewline) ? "must be one line" : nil
        }
    }

    private static func text(
        _ name: String, _ field: WritableKeyPath<PresetSettings, String> & Sendable, _ help: String,
        allowed: String, check: @escaping @Sendable (String) -> String?
    ) -> PresetKey {
        PresetKey(
            section: "pipewire", name: name, unit: "", help: help,
            kind: .text(allowed, get: { $0[keyPath: field] }, set: { $0[keyPath: field] = $1 }, check: check))
    }

    /// The first problem of the resolved `[pipewire]` section that no single key shows, as
    /// (key, message).
    static func pipeWireProblem(_ session: SessionSettings) -> (key: String, message: String)? {
        if session.pipeWireMicNode == session.pipeWireCallNode {
            return ("call_node", "names the same node as pipewire.mic_node; give the two nodes")
        }
        if session.pipeWireEnabled && !session.autoConnect {
            return ("enabled", "links ports, and jack.auto_connect = false links none; give one")
        }
        return nil
    }
}
