import Testing
import VoiceRecorder

@testable import VoiceHost

/// `record TAP...` from a control surface: which taps, and which file each goes to.
@Suite struct RecordingTapsTests {
    @Test func tapNamesAreCheckedWithWhatIsWrong() throws {
        #expect(try LiveRecordingOptions.taps(named: ["mic", "reference"]) == [.mic, .reference])
        for (names, message) in [
            ([], "name at least one tap"),
            (["mic", "mic"], "tap mic named twice"),
            (["now"], "'now' is not a tap; use " + Tap.allCases.map(\.rawValue).joined(separator: ", ")),
        ] {
            #expect(throws: HostError.self) { try LiveRecordingOptions.taps(named: names) }
            do {
                _ = try LiveRecordingOptions.taps(named: names)
            } catch {
                #expect(error.message == message)
                #expect(error.kind == .usage)
            }
        }
    }

    @Test func eachTapKeepsItsRecordFileElseTheDefaultName() throws {
        var options = LiveRecordingOptions()
        options.targets = try LiveRecordingOptions.parse(["mic=takes/{tap}.flac"])
        options.format = nil
        let targets = options.targets(for: [.voice, .mic])
        #expect(targets.map(\.tap) == [.voice, .mic])
        #expect(targets[0].template == LiveRecordingOptions.defaultTemplate)
        #expect(targets[1].template == "takes/{tap}.flac")
    }

    @Test func anUnknownPlaceholderIsRefusedWithTheKnownOnes() throws {
        #expect(throws: HostError.self) { try LiveRecordingOptions.parse(["mic=take-{foo}.wav"]) }
        #expect {
            try LiveRecordingOptions.parse(["take-{n}-{Date}.wav"])
        } throws: { error in
            let error = error as? HostError
            return error?.kind == .usage
                && error?.message
                    == "--record take-{n}-{Date}.wav: {Date} is not a placeholder; use {date}, {time}, {ms}, {n}, {client}, {tap}"
        }
        let known = try LiveRecordingOptions.parse(["{client}-{date}-{time}-{ms}-{n}-{tap}.wav", "mic=a{}b{ c}.wav"])
        #expect(known.count == 2)
    }
}
