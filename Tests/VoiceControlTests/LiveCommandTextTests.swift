import Testing
import VoiceControl

/// `LiveCommand.parse`: the `--control` text commands onto the shared command vocabulary.
@Suite struct LiveCommandTextTests {
    private func parsed(_ line: String) -> LiveCommand? {
        guard case .success(let command)? = LiveCommand.parse(line) else { return nil }
        return command
    }

    private func failure(_ line: String) -> String? {
        guard case .failure(let failure)? = LiveCommand.parse(line) else { return nil }
        return failure.message
    }

    @Test func everyCommandParses() {
        #expect(parsed("set monitor.master_db -6") == .set(key: "monitor.master_db", value: "-6"))
        #expect(parsed("  set chain.order  eq, compressor ") == .set(key: "chain.order", value: "eq, compressor"))
        #expect(parsed("get monitor.master_db") == .get(key: "monitor.master_db"))
        #expect(parsed("show") == .show)
        #expect(parsed("load podcast") == .loadPreset("podcast"))
        #expect(parsed("unmute") == .unmuteMonitor)
        #expect(parsed("record") == .record(true))
        #expect(parsed("stop") == .record(false))
        #expect(parsed("record mic  reference") == .recordTaps(["mic", "reference"]))
        #expect(parsed("pause") == .backing(.toggle))
        #expect(parsed("backing play") == .backing(.play))
        #expect(parsed("backing pause") == .backing(.pause))
        #expect(parsed("status") == .status)
        #expect(parsed("stream start") == .stream(true))
        #expect(parsed("stream stop") == .stream(false))
        #expect(parsed("mute on") == .muteVoice(true))
        #expect(parsed("mute off") == .muteVoice(false))
        #expect(parsed("help") == .help)
        #expect(LiveCommand.parse("   ") == nil)
    }

    @Test func wrongLinesSayWhatIsWrong() {
        #expect(failure("set monitor.master_db") == "usage: set KEY VALUE (e.g. set monitor.master_db -6)")
        #expect(failure("get") == "usage: get KEY (e.g. get monitor.master_db)")
        #expect(failure("mute maybe") == "usage: mute on|off")
        #expect(failure("stream") == "usage: stream start|stop")
        #expect(failure("backing loud") == "usage: backing play|pause|toggle")
        #expect(failure("frobnicate") == "unknown command 'frobnicate'; try help")
    }
}

extension LiveCommandTextTests {
    @Test func descriptionsParseBackToTheSameCommand() {
        let commands: [LiveCommand] = [
            .set(key: "monitor.master_db", value: "-6"), .get(key: "output.gain_db"), .show, .record(true),
            .record(false), .backing(.play), .backing(.pause), .backing(.toggle), .unmuteMonitor, .muteVoice(true),
            .muteVoice(false), .stream(true), .stream(false), .loadPreset("podcast"), .status, .help,
            .recordTaps(["voice", "mic"]),
        ]
        for command in commands { #expect(parsed(command.description) == command, "\(command)") }
    }
}
