import CRealtimeCheck
import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoiceLoudness
import VoicePresets
import VoiceRecorder
import VoiceTestSupport

/// The live loudness meter's hand-over inside RealtimeSanitizer's region: warm render cycles of
/// the podcast preset feed voice_out to a `LiveLoudness` (its route beside a recording, as
/// `run` sets it), drained between cycles, and `agc.target_lufs`'s loop moves the
/// leveller's target between cycles, which the process thread applies. The process thread only
/// copies into preallocated blocks and glides to a new target.
@Suite("Real-time safety: loudness meter", .serialized)
struct LoudnessRealtimeTests {
    @Test("render cycles feeding the loudness meter, its target moved by the loop, do nothing real-time unsafe")
    func meterHandOverIsRealtimeSafe() throws {
        let rate = 48_000
        let block = 256
        let configuration = try PresetLibrary.standard(pluginHost: nil).load("podcast").configuration
        let rig = try CycleRig(configuration: configuration, rate: rate, block: block, referenceChannels: 1)
        try rig.record([.voice])
        let meter = try #require(LiveLoudness(sampleRate: rate, thread: false))
        let recording = try #require(rig.recordings.first)
        #expect(
            rig.host.route([TapRoute(tap: .voice, input: recording.input), TapRoute(tap: .voice, input: meter.input)]))
        var loop = LoudnessSteering(targetLUFS: -16, speedDBPerSecond: Double(configuration.levellerSpeedDBPerSecond))
        let seconds = 12
        let n = rate * seconds
        // A quiet talker (-30 dBFS RMS at the mic): the loop has to raise the target.
        let mic = Signals.speechLike(count: n, sampleRate: rate, rms: 0.03, seed: 41)
        let far = [Float](repeating: 0, count: n)
        var moves = 0
        let cycles = rig.renderChecked(mic: mic, far: far, warmBlocks: rate / block) { start in
            // The meter's consumer, as its thread does live (here between cycles: the cycles run
            // faster than real time).
            meter.drain()
            guard start % (rate / 10) < block else { return }
            var wanted = rig.host.liveConfiguration
            if let next = loop.step(meter.figures, currentDBFS: Double(wanted.levellerTargetDBFS)) {
                wanted.levellerTargetDBFS = Float(next)
                #expect(rig.host.applyLive(wanted).dropped == 0)
                moves += 1
            }
        }
        _ = rig.host.route([])
        meter.input.finish()
        meter.drain()
        let f = meter.figures
        #expect(cycles > (seconds - 1) * rate / block - 2)
        #expect(f.framesLost == 0 && rig.framesLost == 0, "\(f)")
        // Every full 20 ms block of the 12 s was measured.
        #expect(abs(f.seconds - Double(seconds)) < 0.03, "\(f.seconds) s")
        #expect(moves >= 3, "the loop moved the target \(moves) times")
        #expect(rig.host.liveConfiguration.levellerTargetDBFS > configuration.levellerTargetDBFS + 3)
        print(
            "loudness RT: \(cycles) cycles in the region, target moved \(moves) times to "
                + "\(rig.host.liveConfiguration.levellerTargetDBFS) dBFS; take \(f.take.summary)")
    }
}
