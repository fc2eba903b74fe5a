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

extension LiveCommandTextTests {
    /// `help` prints each line after the log's `voicerack: ` (11 columns): at 80 columns none
    /// may wrap, which would cut it mid-word.
    @Test func helpFitsEightyColumnsAfterTheLogPrefix() {
        for line in LiveCommand.textHelp {
            #expect(("voicerack: " + line).count <= 79, "\(line)")
        }
        #expect(LiveCommand.textHelp.contains { $0.hasPrefix("  quit, exit ") })
    }
}

/// The health figures are described once: every surface's name for a figure is unique, and the
/// echo verdict's rule has its edges where the docs say.
@Suite struct LiveFigureTests {
    @Test func namesAreUniqueAndVerdictEdgesHold() {
        let names = LiveFigure.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(EchoVerdict(removedDB: 35) == .good && EchoVerdict(removedDB: 34.9) == .fair)
        #expect(EchoVerdict(removedDB: 20) == .fair && EchoVerdict(removedDB: 19.9) == .poor)
        var s = LiveSnapshot()
        #expect(EchoVerdict.words(s) == "no far end yet")
        s.farActive = true
        #expect(EchoVerdict.words(s) == "measuring")
        s.echoRemovalDB = 12
        #expect(EchoVerdict.words(s) == "poor: echo audible, check the delay and speaker level")
        #expect(LiveFigure.echo.text(s) == "12 dB")
        #expect(LiveFigure.delay.text(s) == "--")
        s.delayMilliseconds = 90.4
        #expect(LiveFigure.delay.text(s) == "90 ms")
        #expect(LiveFigure.talking.text(s) == "off")
        // Nothing detects voice (the null canceller): talking and double talk are not measured.
        s.voiceDetected = false
        #expect(LiveFigure.talking.text(s) == "--" && LiveFigure.talking.value(s) == nil)
        #expect(LiveFigure.doubleTalk.value(s) == nil)
        #expect(LiveFigure.echo.helpName == "echo_db (dB)" && LiveFigure.xruns.helpName == "xruns (count)")
    }
}
