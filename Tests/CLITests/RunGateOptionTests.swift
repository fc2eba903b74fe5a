import Foundation
import Testing
import VoiceTestSupport

/// `voicerack run`'s freewheel and transport options refuse what cannot work (64, saying what
/// is missing) before any JACK server is asked.
@Suite("voicerack run: freewheel and transport options")
struct RunGateOptionTests {
    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.voicerack(
            ["run", "--preset", "raw", "--no-auto-connect", "--server", "voicerack-none-\(getpid())"] + arguments)
    }

    @Test(
        "a recording gate without --record is a usage error naming what to give",
        arguments: ["--record-on-freewheel", "--record-on-transport"])
    func gateNeedsRecordings(flag: String) throws {
        let r = try run([flag])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("\(flag) says when to record; give what with --record FILE"))
    }

    @Test("the two gates exclude each other")
    func gatesExcludeEachOther() throws {
        let r = try run(["--record-on-freewheel", "--record-on-transport", "--record", "voice.wav"])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("--record-on-freewheel and --record-on-transport exclude each other"))
    }

    @Test("a backing track that follows the transport needs a backing track")
    func followingNeedsATrack() throws {
        let r = try run(["--backing-follows-transport"])
        #expect(r.status == 64, "\(r.status): \(r.standardError.prefix(300))")
        #expect(r.standardError.contains("--backing-follows-transport: no backing track; give --backing FILE"))
    }
}
