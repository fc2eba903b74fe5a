import CRealtimeCheck
import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

/// Live parameter changes and the feedback guard inside RealtimeSanitizer's region: every
/// parameter of every unit, the gains, the monitor and ducking, the guard tripping on a howl and
/// being re-armed, all applied by warm render cycles.
@Suite("Real-time safety of live changes", .serialized)
struct ParameterRealtimeTests {
    @Test("messages to every unit parameter and a tripping feedback guard do nothing real-time unsafe")
    func messagesAndGuardAreRealtimeSafe() throws {
        var c = EngineConfiguration()
        c.effectOrder = EffectKind.allCases
        c.monitor = true
        c.ducking = true
        c.leveller = true
        let rate = 48_000, block = 64
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: block, referenceChannels: 2)
        // Every unit parameter set to its range's far end and back, plus every engine control.
        var changed = c
        for kind in EffectKind.allCases {
            for (i, p) in kind.parameters.enumerated() {
                changed.effectValues[kind.index][i] =
                    p.defaultValue == p.range.upperBound ? p.range.lowerBound : p.range.upperBound
            }
        }
        changed.inputGainDB = -6
        changed.outputGainDB = 3
        changed.levellerTargetDBFS = -24
        changed.monitorMasterDB = -3
        changed.monitorVoicePan = 0.5
        changed.duckingDepthDB = -20
        changed.monitorFeedbackGuard = false
        let forth = c.liveUpdate(to: changed).messages
        var back = changed.liveUpdate(to: c).messages
        back += EngineConfiguration.rearmFeedbackGuard
        #expect(forth.count > 50)

        // A howl in the mic (a 2.4 kHz tone growing 100 dB/s from −60 dBFS) trips the guard.
        let n = rate * 2
        let howl = (0..<n).map { t -> Float in
            let s = Float(t) / Float(rate)
            return min(0.9, 0.001 * powf(10, 5 * s)) * sinf(2 * .pi * 2_400 * s)
        }
        var out = [Float](repeating: 0, count: block)
        var sl = out, sr = out, ml = out, mr = out
        let zeros = out
        let warm = rate / 4 / block
        var cycles = 0
        howl.withUnsafeBufferPointer { h in
            for k in 0..<(n / block) {
                if k == warm + 10 { engine.post(forth) }
                if k == warm + 200 { engine.post(back) }
                let inRegion = k >= warm
                if inRegion { rtcheck_enter() }
                let state = engine.state
                state.pointee.feedSpeakers(
                    farLeft: zeros, farRight: zeros, speakerLeft: &sl, speakerRight: &sr, frames: block)
                state.pointee.render(
                    mic: h.baseAddress! + k * block, farLeft: sl, farRight: sr, voice: &out, frames: block)
                state.pointee.mixMonitor(
                    voice: out, speakerLeft: sl, speakerRight: sr, monitorLeft: &ml, monitorRight: &mr, frames: block)
                if inRegion {
                    rtcheck_exit()
                    cycles += 1
                }
            }
        }
        let h = engine.health()
        #expect(cycles > 1_000)
        #expect(h.parametersApplied == forth.count + back.count)
        #expect(h.parametersRejected == 0)
        #expect(h.feedbackEvents >= 1, "the guard ran and tripped inside the region")
    }
}
