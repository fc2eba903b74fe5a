import CRealtimeCheck
import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoiceLV2
import VoicePresets
import VoiceRT
import VoiceRecorder
import VoiceTestSupport

/// Runs warm render cycles inside RealtimeSanitizer's real-time region: any malloc, free, lock,
/// sleep or system call in them aborts the process (and fails `scripts/test.sh`). The compiler's
/// `@_noLocks` check covers the Swift code; this covers what it cannot see (speexdsp, the Swift
/// runtime's lazy metadata, libm).
@Suite("Real-time safety", .serialized)
struct RenderCycleRealtimeTests {
    /// True when scripts/test.sh linked the sanitizer's runtime into this test bundle.
    static var sanitizerExpected: Bool { ProcessInfo.processInfo.environment["VOICERACK_RTSAN_RUNTIME"] != nil }

    @Test("the sanitizer runtime is linked when the test script asks for it")
    func sanitizerIsActive() {
        if Self.sanitizerExpected {
            #expect(rtcheck_is_active() == 1, "VOICERACK_RTSAN_RUNTIME is set but the runtime is not linked")
        } else {
            print("RealtimeSanitizer not linked: run scripts/test.sh for the checked run")
        }
    }

    @Test("the sanitizer catches an allocation in a real-time region (so the checks below can fail)")
    func sanitizerCatchesAllocation() async {
        guard Self.sanitizerExpected else { return }
        // 43 is RealtimeSanitizer's exit code for a real-time violation.
        await #expect(processExitsWith: .exitCode(43)) {
            rtcheck_enter()
            let numbers = (0..<Int.random(in: 10...20)).map { $0 * 2 }
            rtcheck_exit()
            print(numbers.count)
        }
    }

    /// Shipped presets, engines built from them, warmed on audio outside the region, then
    /// `cycles` blocks of an echo scenario rendered inside it through the one render cycle the
    /// drivers run (ducking, speakers, engine, monitor, taps). Half way the echo's bulk delay
    /// jumps, so the delay estimator's re-alignment and the canceller's reset run in the region.
    /// The every-effect case also records every tap (tuning and karaoke delay lines included).
    @Test(
        "thousands of warm render cycles do nothing real-time unsafe",
        arguments: [
            // 64 and 128: the post-filter's analysis runs in the cycle after each frame (the
            // speaker curve's learning with it, mono at 128).
            ("echo-cancel", 64, 2), ("echo-cancel", 128, 1), ("echo-cancel", 256, 1), ("echo-cancel", 333, 2),
            ("podcast", 128, 1),
            ("raw", 1024, 1),
            ("echo-cancel+every-effect", 256, 1),
            // echo-cancel's cases run voicerack's own preprocessor (SpectralSuppressor, its noise
            // tracker, speech presence, LSA gain and the canceller's residual echo); speexdsp's,
            // with a stereo reference at 256.
            ("echo-cancel-speexdsp", 64, 1), ("echo-cancel-speexdsp", 256, 2),
            // LV2 units in the chain (LSP's compressor and x42's dpl, both lv2:hardRTCapable, with
            // a threaded worker as live); their controls change by message inside the region.
            ("podcast-lv2", 256, 1),
        ])
    func warmCyclesAreRealtimeSafe(preset: String, block: Int, referenceChannels: Int) throws {
        let plugins = LV2PluginHost(path: "/usr/lib/lv2", worker: .threaded)
        var configuration = try PresetLibrary.standard(pluginHost: plugins).load(
            preset.replacingOccurrences(of: "+every-effect", with: "")
        ).configuration
        if preset.hasSuffix("+every-effect") {
            configuration.effectOrder = EffectKind.allCases
            configuration.monitor = true
            configuration.ducking = true
        }
        if preset.hasPrefix("echo-cancel") {
            // The residual echo post-filter runs in these cycles, its coherence and leftover-echo
            // gains included (the echo path jumps at 4.5 s: the leftover fit has echo to find);
            // its tail model, off in echo-cancel, is switched on by message below (1 in every
            // third step).
            #expect(configuration.coherenceSuppression > 0 && configuration.leftoverEchoSuppression > 0)
        }
        #expect(
            (configuration.suppressor == .voicerack)
                == (preset.hasPrefix("echo-cancel") && preset != "echo-cancel-speexdsp"))
        let rate = 48_000
        let rig = try CycleRig(
            configuration: configuration, rate: rate, block: block, referenceChannels: referenceChannels,
            pluginHost: plugins)
        if preset.hasSuffix("+every-effect") { try rig.record(Tap.allCases) }
        let seconds = 9  // the far end pauses in seconds 3 and 7: the jump at 4.5 s has 2.5 s of talk after it
        let n = rate * seconds
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 31)
        let near = Signals.speechLike(count: n, sampleRate: rate, rms: 0.03, seed: 32)
        let early = Signals.convolve(
            far, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.05, tail: 0.05, gain: 0.5, seed: 33))
        let late = Signals.convolve(
            far, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.2, tail: 0.05, gain: 0.5, seed: 34))
        let mic = Signals.mix(Array(early.prefix(n / 2)) + Array(late.suffix(n - n / 2)), near)
        let cycles = rig.renderChecked(mic: mic, far: far, warmBlocks: rate / block) { start in
            // The voice mute and its muted-talker detector in the second half (every-effect case).
            if start == n / 2 && preset.hasSuffix("+every-effect") { rig.host.setVoiceMuted(true) }
            // LV2 controls by message, applied by the cycle in the region.
            if start / block % 100 == 50 && preset.hasSuffix("-lv2") {
                let gain: Float = start / block % 200 == 50 ? -6 : 0
                #expect(rig.host.post([ControlMessage("peak.gain", gain), ControlMessage("comp.cr", 4)]) == 2)
            }
            // The post-filter's strengths and the residual echo gate by message: stronger, off
            // (the post-filter's gain rising back to 1 while it still runs), the preset's own.
            if start / block % 100 == 25 && configuration.echoCancellation {
                // (tail model, coherence exponent, gate's linear gain, leftover exponent)
                let step = [
                    (Float(1), Float(0.5), Float(0.25), Float(3)), (0, 0, 1, 0),
                    (
                        configuration.residualSuppression, configuration.coherenceSuppression,
                        Decibels.amplitude(configuration.residualEchoGateDB), configuration.leftoverEchoSuppression
                    ),
                ][start / block / 100 % 3]
                let messages = [
                    ControlMessage(EngineControl.residualSuppression.name, step.0),
                    ControlMessage(EngineControl.coherenceSuppression.name, step.1),
                    ControlMessage(EngineControl.residualEchoGate.name, step.2),
                    ControlMessage(EngineControl.leftoverEchoSuppression.name, step.3),
                ]
                #expect(rig.host.post(messages) == 4)
            }
        }
        #expect(rig.framesLost == 0)
        #expect(cycles > 200)
        let h = rig.host.status().health
        #expect(h.framesProcessed >= n - block)
        if preset.hasSuffix("-lv2") {
            // Every LV2 message found its port, and dpl's look-ahead is in the voice's latency.
            #expect(h.parametersRejected == 0)
            #expect(h.parametersApplied >= 2 * (n / block / 100) - 2)
            #expect(rig.host.status().latency >= 64)
        }
        if configuration.echoCancellation {
            // Every residual echo message found its target.
            #expect(h.parametersRejected == 0)
            #expect(h.parametersApplied >= 3 * (n / block / 100) - 3)
            // The delay jump really happened in the region: two alignments, the second at ~200 ms.
            #expect(h.cancellerResets >= 2, "preset \(preset), block \(block)")
            #expect(abs(Double(h.estimatedDelay) * 1000 / Double(rate) - 200) < 2)
        }
    }
}
