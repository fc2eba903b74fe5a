import Foundation
import Testing
import VoiceEngine
import VoiceFiles
import VoiceTestSupport

@testable import VoiceHost

/// The backing-track player on its own: resampling, loop, level, pause, underruns, errors.
@Suite("Backing track player")
struct BackingTrackTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    @Test("a 44.1 kHz track played at 48 kHz keeps its duration and its pitch, with no underruns")
    func resamplingKeepsDurationAndPitch() throws {
        let seconds = 3
        let tone = Signals.sine(count: 44_100 * seconds, frequency: 1000, sampleRate: 44_100, amplitude: 0.5)
        let path = try BackingFiles.wav(folder.file("tone.wav"), [tone], rate: 44_100)
        let track = try BackingTrack(path: path, sampleRate: 48_000, levelDB: 0, loop: false)
        let played = try track.renderOffline(frames: 48_000 * 4, block: 256)
        // Duration: exactly the file's length at the new rate came out of the ring, then the end.
        #expect(track.source.pointee.framesPlayed.load(ordering: .relaxed) == 48_000 * seconds)
        let lastSound = played[0].lastIndex { abs($0) > 0.01 } ?? 0
        #expect(abs(lastSound - 48_000 * seconds) < 48, "last sample above -40 dBFS at \(lastSound)")
        // Pitch: still 1000 Hz (played at the wrong rate it would be 1088 Hz).
        let f = Tone.frequency(played[0], sampleRate: 48_000, 4_800..<(48_000 * seconds - 4_800))
        #expect(abs(f - 1000) < 0.05, "measured \(f) Hz")
        #expect(played[0] == played[1], "a mono track plays on both speakers")
        let level = Tone.decibels(Tone.amplitude(played[0], frequency: 1000, sampleRate: 48_000, 4_800..<100_800) / 0.5)
        #expect(abs(level) < 0.1, "level \(level) dB")
        #expect(track.underruns == 0)
        print(
            "backing resampling: 1000 Hz → \(f) Hz, \(track.source.pointee.framesPlayed.load(ordering: .relaxed)) frames, reader CPU \(track.cpuSeconds) s for \(seconds) s of audio"
        )
    }

    @Test("a looping track wraps without a gap, at the same rate and resampled", arguments: [48_000, 44_100])
    func loopHasNoGap(fileRate: Int) throws {
        // Half a second of 1 kHz: a whole number of cycles, so the looped stream is one sine.
        let tone = Signals.sine(count: fileRate / 2, frequency: 1000, sampleRate: fileRate, amplitude: 0.5)
        let path = try BackingFiles.wav(folder.file("loop.wav"), [tone], rate: fileRate)
        let track = try BackingTrack(path: path, sampleRate: 48_000, levelDB: 0, loop: true)
        let played = try track.renderOffline(frames: 48_000 * 2, block: 256)[0]
        let ideal = Signals.sine(count: played.count, frequency: 1000, sampleRate: 48_000, amplitude: 0.5)
        // After the resampler's first few ms, every sample (across three loop points) is the sine's.
        var worst: Float = 0
        for i in 480..<played.count { worst = max(worst, abs(played[i] - ideal[i])) }
        #expect(worst < (fileRate == 48_000 ? 1e-6 : 0.01), "largest deviation \(worst) (a gap would be ~0.5)")
        #expect(track.underruns == 0)
        let finished = track.source.pointee.finished.load(ordering: .relaxed)
        #expect(!finished)
    }

    @Test("level changes and pause glide over 20 ms without steps; a paused track holds its place")
    func levelGlideAndPause() throws {
        let dc = [Float](repeating: 0.5, count: 48_000 * 3)
        let path = try BackingFiles.wav(folder.file("dc.wav"), [dc], rate: 48_000)
        let track = try BackingTrack(path: path, sampleRate: 48_000, levelDB: -6, loop: false)
        var played: [Float] = []
        func run(_ blocks: Int) throws { played += try track.renderOffline(frames: blocks * 256, block: 256)[0] }
        try run(20)
        #expect(abs(Double(played.last!) - 0.5 * pow(10, -6.0 / 20)) < 1e-6)
        track.setLevel(-20)
        let change = played.count
        try run(20)
        let from = 0.5 * Float(pow(10, -6.0 / 20)), to = 0.5 * Float(pow(10, -20.0 / 20))
        // Linear glide over 960 samples (20 ms): no step larger than one glide increment.
        var largestStep: Float = 0
        for i in (change + 1)..<played.count { largestStep = max(largestStep, abs(played[i] - played[i - 1])) }
        #expect(largestStep <= (from - to) / 960 * 1.01)
        #expect(abs(played[change + 960] - to) < 1e-6 && played[change + 480] < from && played[change + 480] > to)
        // Pause: fades out over 20 ms, then the ring is left alone.
        #expect(!track.togglePlaying())
        try run(10)
        let held = track.source.pointee.framesPlayed.load(ordering: .relaxed)
        try run(20)
        #expect(played.suffix(20 * 256).allSatisfy { $0 == 0 })
        #expect(track.source.pointee.framesPlayed.load(ordering: .relaxed) == held)
        #expect(track.togglePlaying())
        try run(20)
        #expect(abs(played.last! - to) < 1e-6)
        #expect(track.underruns == 0)
    }

    @Test("a reader that falls behind plays silence and counts the missing frames")
    func underrunsAreCounted() throws {
        let path = try BackingFiles.wav(
            folder.file("long.wav"), [[Float](repeating: 0.25, count: 48_000 * 5)], rate: 48_000)
        let track = try BackingTrack(path: path, sampleRate: 48_000, levelDB: 0, loop: false)
        // Play 3 s without refilling: the read-ahead (2.7 s) runs out, then the rest is missing.
        var l = [Float](repeating: 0, count: 256), r = l
        for _ in 0..<(3 * 48_000 / 256) {
            for i in 0..<256 { l[i] = 0; r[i] = 0 }
            track.source.pointee.play(into: &l, &r, frames: 256)
        }
        let ahead = track.source.pointee.ring.capacity / 2
        #expect(abs(track.underruns - (3 * 48_000 / 256 * 256 - ahead)) <= 256)
        #expect(l.allSatisfy { $0 == 0 })
    }

    @Test("missing, unreadable and multichannel files are refused with the file named (66, 65)")
    func errors() throws {
        let missing = folder.file("nope.flac")
        #expect(throws: HostError(.noInput, "backing track \(missing) does not exist")) {
            _ = try BackingTrack.open(missing)
        }
        let text = folder.file("notes.wav")
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        do {
            _ = try BackingTrack.open(text)
            Issue.record("a text file was accepted")
        } catch {
            #expect(error.kind == .data && error.exitCode == 65 && error.message.contains(text), "\(error)")
        }
        let z = [Float](repeating: 0.1, count: 100)
        let three = try BackingFiles.wav(folder.file("three.wav"), [z, z, z], rate: 48_000)
        #expect(
            throws: HostError(.data, "backing track \(three) has 3 channels; voicerack plays mono or stereo tracks")
        ) {
            _ = try BackingTrack.open(three)
        }
    }
}
