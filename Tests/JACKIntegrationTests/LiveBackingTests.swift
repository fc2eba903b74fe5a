import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack run --backing` against a real jackd: the track plays on speaker_out_L/R (recorded
/// through the reference tap, which records exactly the speaker buffers), at the preset's level,
/// into the karaoke tap, pauses on SIGUSR2, with no underruns.
extension LiveClientTests {
    @Test("run --backing plays the track on speaker_out_L/R at its level; SIGUSR2 pauses it")
    func backingPlaysOnSpeakers() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 1 kHz left, 1.5 kHz right, at 44.1 kHz: the player resamples to the server's 48 kHz.
        let n = 44_100 * 20
        let track = try TestFiles.wav(
            folder + "/song.wav",
            [
                Signals.sine(count: n, frequency: 1000, sampleRate: 44_100, amplitude: 0.5),
                Signals.sine(count: n, frequency: 1500, sampleRate: 44_100, amplitude: 0.5),
            ], rate: 44_100)
        let reference = folder + "/speakers.wav", karaoke = folder + "/karaoke.wav"
        let (voicerack, _) = try launchRecordingClient(
            on: server, preset: "karaoke",
            [
                "--backing", track, "--format", "wav:float", "--record", "reference=\(reference)", "--record",
                "karaoke=\(karaoke)",
            ])
        Thread.sleep(forTimeInterval: 2)
        voicerack.send(SIGUSR2)
        #expect(poll(timeout: 5) { voicerack.output.contains("SIGUSR2: backing track paused") })
        Thread.sleep(forTimeInterval: 1.5)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
        #expect(voicerack.output.contains("frames underrun"), "\(voicerack.output)")
        #expect(voicerack.output.contains(", 0 frames underrun"), "\(voicerack.output)")

        let speakers = try AudioFileContents.read(reference)
        #expect(speakers.sampleRate == 48_000 && speakers.channels.count == 2)
        try #require(speakers.frames > 48_000 * 3)
        // While playing (0.5-1.5 s): each speaker carries its channel at level_db = -6 dB, at pitch.
        let playing = 24_000..<72_000
        for (channel, f) in [(0, 1000.0), (1, 1500.0)] {
            let x = speakers.channels[channel]
            let levelDB = Tone.decibels(Tone.amplitude(x, frequency: f, sampleRate: 48_000, playing) / 0.5)
            let measured = Tone.frequency(x, sampleRate: 48_000, playing)
            print(
                String(
                    format: "live speaker_out ch %d: %.2f dB (set -6), %.2f Hz (file %.0f Hz)", channel, levelDB,
                    measured, f))
            #expect(abs(levelDB - -6) < 0.2)
            #expect(abs(measured - f) < 0.5)
        }
        // Paused for the last second: silence after the 20 ms fade.
        let tail = (speakers.frames - 24_000)..<speakers.frames
        #expect(Measure.rms(speakers.channels[0], tail) == 0)
        // The karaoke tap: no voice (mic unconnected), the track at -6 dB + karaoke_backing_db 0.
        let mix = try AudioFileContents.read(karaoke)
        let karaokeDB = Tone.decibels(
            Tone.amplitude(mix.channels[0], frequency: 1000, sampleRate: 48_000, playing) / 0.5)
        #expect(abs(karaokeDB - -6) < 0.2, "karaoke backing \(karaokeDB) dB")
    }
}
