import VoiceEngine

extension PresetSchema {
    /// `[jack]`: how the live client joins the graph.
    static let jackKeys: [PresetKey] = [
        .boolean(
            "jack", "auto_connect", \.session.autoConnect,
            "Connect mic_in and speaker_out_L/R to the first physical ports at start, leaving alone any port a patchbay already connected; false leaves all patching to you (as --no-auto-connect does for one run)."
        )
    ]
}
