import Testing
import VoicePresets

@Suite("PipeWire desktop keys")
struct PipeWireKeyTests {
    @Test(
        "[pipewire] is off by default with the shipped node names; a preset turns it on, names nodes and words the notice; a base passes it on"
    )
    func keysResolve() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("plain", "description = \"plain\"\n")
        let plain = try temporary.library.load("plain").settings.session
        #expect(!plain.pipeWireEnabled && !plain.pipeWireMakeDefault)
        #expect(plain.pipeWireMicNode == "voicerack-mic" && plain.pipeWireCallNode == "voicerack-call")
        #expect(plain.mutedNoticeSummary == "You are talking while muted")
        try temporary.write(
            "desk",
            """
            [pipewire]
            enabled = true
            mic_node = "studio-mic"
            call_node = "studio-call"
            make_default = true
            muted_notice = "Mikrofon stumm"
            muted_notice_body = ""

            """)
        try temporary.write("child", "base = \"desk\"\n")
        let desk = try temporary.library.load("child").settings.session
        #expect(desk.pipeWireEnabled && desk.pipeWireMakeDefault)
        #expect(desk.pipeWireMicNode == "studio-mic" && desk.pipeWireCallNode == "studio-call")
        #expect(desk.mutedNoticeSummary == "Mikrofon stumm" && desk.mutedNoticeBody.isEmpty)
    }

    @Test(
        "presets check refuses a node name with ':' or none, one node for both, a two-line notice, and enabled with jack.auto_connect = false, naming the line and key",
        arguments: [
            (
                "[pipewire]\nmic_node = \"voicerack: mic\"\n",
                ":2: pipewire.mic_node = \"voicerack: mic\": must be one line with no ':'"
            ),
            ("[pipewire]\ncall_node = \"\"\n", ":2: pipewire.call_node = \"\": must name a node"),
            (
                "[pipewire]\nmic_node = \"x\"\ncall_node = \"x\"\n",
                ":3: pipewire.call_node: names the same node as pipewire.mic_node"
            ),
            ("[pipewire]\nmuted_notice = \"a\\nb\"\n", "must be one line"),
            (
                "[jack]\nauto_connect = false\n[pipewire]\nenabled = true\n",
                ":4: pipewire.enabled: links ports, and jack.auto_connect = false links none"
            ),
            ("[pipewire]\nenabled = \"yes\"\n", ":2: pipewire.enabled must be true or false"),
        ])
    func badKeysAreRefused(text: String, expected: String) throws {
        let temporary = try TemporaryPresets()
        try temporary.write("bad", text)
        let error = #expect(throws: PresetError.self) { try temporary.library.load("bad") }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }
}
