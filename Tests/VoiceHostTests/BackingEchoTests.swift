import Foundation
import Testing
import VoiceEngine
import VoiceFiles
import VoiceRecorder
import VoiceSession
import VoiceTestSupport

@testable import VoiceHost

/// The backing track offline: its echo is cancelled as well as an ordinary far end's, and the
/// karaoke tap holds voice and track at the set levels.
@Suite("Backing track offline")
struct BackingEchoTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// The karaoke preset's canceller and preprocessor (no chain: reverb would blur the ERLE).
    static var canceller: EngineConfiguration {
        var c = EngineConfiguration()
        c.highPassHz = 80
        c.echoCancellation = true
        c.tailMilliseconds = 200
        c.frameMilliseconds = 8
        c.preprocess = true
        c.noiseSuppressDB = -12
        c.echoSuppressDB = -40
        c.echoSuppressActiveDB = -6
        return c
    }

    /// The track at -6 dB on the speakers.
    static let backingAtMinus6: SessionSettings = {
        var s = SessionSettings()
        s.backingLevelDB = -6
        return s
    }()

    @Test("a backing track's echo through a room is cancelled within 2 dB of the same signal as --ref")
    func backingEchoIsCancelledLikeAFarEnd() throws {
        let rate = 48_000, seconds = 12
        let n = rate * seconds
        // A 44.1 kHz song file, as tracks usually are.
        let song = BackingFiles.musicLike(count: 44_100 * seconds, sampleRate: 44_100, rms: 0.2, seed: 71)
        let songPath = try BackingFiles.wav(folder.file("song.wav"), [song], rate: 44_100)
        // What the speakers play: the track at -6 dB, resampled to 48 kHz by the player.
        let played = try BackingTrack(path: songPath, sampleRate: rate, levelDB: -6, loop: false)
            .renderOffline(frames: n, block: 256)[0]
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.03, tail: 0.08, gain: 0.5, seed: 72)
        let mic = Signals.mix(Signals.convolve(played, room), Signals.whiteNoise(count: n, rms: 0.0003, seed: 73))
        let micPath = try BackingFiles.wav(folder.file("mic.wav"), [mic], rate: rate)
        // The same song as an ordinary far end: the 44.1 kHz file at -6 dB, which `process`
        // resamples as a whole with its own resampler.
        let level = Float(pow(10, -6.0 / 20))
        let farPath = try BackingFiles.wav(folder.file("far.wav"), [song.map { $0 * level }], rate: 44_100)

        var asFarEnd = OfflineRequest(micPath: micPath, referencePath: farPath, outputPath: folder.file("far-out.wav"))
        asFarEnd.blockSize = 256
        let farReport = try OfflineProcessor.run(asFarEnd, configuration: Self.canceller, session: Self.backingAtMinus6)
        var asBacking = OfflineRequest(micPath: micPath, referencePath: nil, outputPath: folder.file("backing-out.wav"))
        asBacking.backingPath = songPath
        let backingReport = try OfflineProcessor.run(
            asBacking, configuration: Self.canceller, session: Self.backingAtMinus6)

        let tail = (n * 6 / 10)..<n
        let farOut = try AudioFileContents.read(asFarEnd.outputPath).channels[0]
        let backingOut = try AudioFileContents.read(asBacking.outputPath).channels[0]
        let farERLE = Measure.ratioDB(mic, farOut, tail)
        let backingERLE = Measure.ratioDB(mic, backingOut, tail)
        print(String(format: "backing ERLE %.1f dB, same signal as far end %.1f dB", backingERLE, farERLE))
        #expect(abs(backingERLE - farERLE) <= 2)
        #expect(backingERLE > 20)
        #expect(backingReport.backingUnderruns == 0)
        #expect(farReport.backingUnderruns == nil)
        #expect(backingReport.referenceChannels == 2)
    }

    @Test("the backing joins a far end in the reference: both echoes are cancelled")
    func backingAndFarEndTogether() throws {
        let rate = 48_000, seconds = 10
        let n = rate * seconds
        let song = BackingFiles.musicLike(count: n, sampleRate: rate, rms: 0.2, seed: 81)
        let songPath = try BackingFiles.wav(folder.file("song.wav"), [song], rate: rate)
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 82)
        let played = Signals.mix(far, song.map { $0 * Float(pow(10, -6.0 / 20)) })
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.02, tail: 0.06, gain: 0.5, seed: 83)
        let mic = Signals.convolve(played, room)
        let micPath = try BackingFiles.wav(folder.file("mic.wav"), [mic], rate: rate)
        var request = OfflineRequest(
            micPath: micPath, referencePath: try BackingFiles.wav(folder.file("far.wav"), [far], rate: rate),
            outputPath: folder.file("out.wav"))
        request.backingPath = songPath
        _ = try OfflineProcessor.run(request, configuration: Self.canceller, session: Self.backingAtMinus6)
        let out = try AudioFileContents.read(request.outputPath).channels[0]
        let erle = Measure.ratioDB(mic, out, (n * 6 / 10)..<n)
        print(String(format: "far end + backing ERLE %.1f dB", erle))
        #expect(erle > 20)
    }

    @Test("the karaoke tap holds the voice and the backing at the set levels, in stereo")
    func karaokeTapLevels() throws {
        let rate = 48_000, n = rate * 2
        // Voice at 300 Hz in the mic; a stereo track with 2 kHz left and 2.5 kHz right.
        let micPath = try BackingFiles.wav(
            folder.file("mic.wav"), [Signals.sine(count: n, frequency: 300, sampleRate: rate, amplitude: 0.2)],
            rate: rate)
        let songPath = try BackingFiles.wav(
            folder.file("song.wav"),
            [
                Signals.sine(count: n, frequency: 2000, sampleRate: rate, amplitude: 0.5),
                Signals.sine(count: n, frequency: 2500, sampleRate: rate, amplitude: 0.5),
            ], rate: rate)
        var c = EngineConfiguration()  // no canceller: the voice is the mic, at the output gain
        c.outputGainDB = -2
        var session = SessionSettings()
        session.backingLevelDB = -4
        session.karaokeVoiceDB = -3
        session.karaokeBackingDB = -6
        var request = OfflineRequest(micPath: micPath, referencePath: nil, outputPath: folder.file("voice.wav"))
        request.backingPath = songPath
        request.taps = [(.karaoke, folder.file("karaoke.wav"))]
        _ = try OfflineProcessor.run(request, configuration: c, session: session)
        let voice = try AudioFileContents.read(request.outputPath).channels[0]
        let tap = try AudioFileContents.read(folder.file("karaoke.wav"))
        #expect(tap.channels.count == 2 && tap.frames == n)
        let span = 4_800..<(n - 4_800)  // whole cycles of 300, 2000 and 2500 Hz
        func level(_ x: [Float], _ f: Double) -> Double { Tone.amplitude(x, frequency: f, sampleRate: rate, span) }
        let voiceRef = level(voice, 300)
        for (channel, track) in [(0, 2000.0), (1, 2500.0)] {
            let voiceDB = Tone.decibels(level(tap.channels[channel], 300) / voiceRef)
            let backingDB = Tone.decibels(level(tap.channels[channel], track) / 0.5)
            let otherDB = Tone.decibels(max(level(tap.channels[channel], track == 2000 ? 2500 : 2000), 1e-9) / 0.5)
            print(
                String(
                    format:
                        "karaoke tap ch %d: voice %.2f dB (set -3), backing %.2f dB (set -4 - 6), other channel %.0f dB",
                    channel, voiceDB, backingDB, otherDB))
            #expect(abs(voiceDB - -3) < 0.5)
            #expect(abs(backingDB - -10) < 0.5)
            #expect(otherDB < -60)
        }
        #expect(abs(Tone.decibels(voiceRef / 0.2) - -2) < 0.1)
    }
}
