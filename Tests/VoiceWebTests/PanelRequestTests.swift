import Testing
import VoiceWeb

/// The panel's record request: taps are names only, a few short words; everything else is
/// refused before it reaches the session.
@Suite("web panel: record requests")
struct PanelRequestTests {
    func decoded(_ json: String) -> PanelRequest? { try? PanelRequest.decode(json).0 }

    func refusal(_ json: String) -> String? {
        do {
            _ = try PanelRequest.decode(json)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func recordWithAndWithoutTaps() {
        #expect(decoded(#"{"op":"record","start":true}"#) == .record(true))
        #expect(decoded(#"{"op":"record","start":false,"taps":["mic"]}"#) == .record(false))
        #expect(
            decoded(#"{"op":"record","start":true,"taps":["mic","reference"]}"#) == .recordTaps(["mic", "reference"]))
    }

    @Test func badTapListsAreRefused() {
        let expected = "'taps' must be a list of 1 to 6 tap names (voice, mic, reference, ...)"
        for taps in [
            #"[]"#, #"["../x"]"#, #"["mic",3]"#, #""mic""#, #"["a","b","c","d","e","f","g"]"#, #"["voice\u0000"]"#,
        ] {
            #expect(refusal(#"{"op":"record","start":true,"taps":"# + taps + "}") == expected, "\(taps)")
        }
    }
}
