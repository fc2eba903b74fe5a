import CRealtimeCheck
import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoicePresets
import VoiceRT
import VoiceRecorder
import VoiceTestSupport

/// The backing track's real-time path inside RealtimeSanitizer's region, through the one render
/// cycle: popping the ring, the level glide, pause/resume fades, underruns (silence and the
/// counter), the mix into the speaker feed that is the echo reference, the monitor, and the
/// karaoke tap's delayed mix into a recording.
@Suite("Real-time safety: backing track", .serialized)
struct BackingRealtimeTests {
    @Test("warm cycles with a backing track do nothing real-time unsafe")
    func backingCyclesAreRealtimeSafe() throws {
        let rate = 48_000, block = 256
        var configuration = try PresetLibrary.standard(pluginHost: nil).load("karaoke").configuration
        configuration.ducking = true
        let rig = try CycleRig(configuration: configuration, rate: rate, block: block, referenceChannels: 2)
        let source = UnsafeMutablePointer<BackingSource>.allocate(capacity: 1)
        source.initialize(to: BackingSource(ringFrames: rate, levelDB: -6, glideSamples: rate / 50))
        defer {
            source.deinitialize(count: 1)
            source.deallocate()
        }
        rig.host.attachBacking(source)
        defer { rig.host.attachBacking(nil) }
        try rig.record([.karaoke, .reference])
        let n = rate * 6
        let song = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 91)
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 92)
        let mic = Signals.whiteNoise(count: n, rms: 0.01, seed: 93)
        var interleaved = [Float](repeating: 0, count: 2 * block)
        var cycles = 0
        var start = 0
        while start + block <= n {
            let second = start / rate
            // Outside the region, as the reader thread and the main thread would: feed the ring
            // (except in second 3, so it runs dry), change the level, pause in second 4.
            if second != 3 {
                for i in 0..<block { interleaved[2 * i] = song[start + i]; interleaved[2 * i + 1] = -song[start + i] }
                _ = source.pointee.ring.producer.write(interleaved, 2 * block)
            }
            if start == 2 * rate { source.pointee.setLevel(-12) }
            source.pointee.setPlaying(second != 4)
            let inRegion = second >= 1
            if inRegion { rtcheck_enter() }
            far.withUnsafeBufferPointer { f in
                mic.withUnsafeBufferPointer { m in rig.render(mic: m.baseAddress! + start, far: f.baseAddress! + start)
                }
            }
            if inRegion {
                rtcheck_exit()
                cycles += 1
            }
            start += block
        }
        #expect(cycles > 800)
        let underruns = source.pointee.underruns.load(ordering: .relaxed)
        #expect(underruns > 0, "second 3 ran the ring dry inside the region")
        #expect(source.pointee.framesPlayed.load(ordering: .relaxed) > 3 * rate)
        #expect((0..<block).contains { rig.speakerLeft[$0] != 0 })
        #expect(rig.framesLost == 0)
    }
}
