import Testing
import VoiceEngine
import VoiceTestSupport

/// The monitor and far-end peak meters the control surfaces show (`HealthFigures.monitorLevel`,
/// `monitorPeak`, `farPeak`), against the signals' own levels.
@Suite("Monitor and far meters")
struct MonitorMeterTests {
    @Test("the monitor meter reads the louder channel's RMS and peak; off, it falls to silence")
    func monitorMeterFollowsTheMix() throws {
        var c = EngineConfiguration.echoCancel
        c.highPassHz = 0
        c.monitor = true
        c.monitorVoicePan = 1  // the voice all right: the right channel is the louder
        c.monitorFarDB = -120
        var live = try LiveCycle(c)
        let mic = Signals.sine(count: 16_000, frequency: 440, sampleRate: 16_000, amplitude: 0.5)
        let far = [Float](repeating: 0, count: 16_000)
        live.run(mic: mic, far: far)
        let h = live.engine.health()
        let tail = live.monitorRight.suffix(4_800)
        let rms = Measure.rms(Array(tail))
        print("monitor meter: \(h.monitorLevel) RMS, \(h.monitorPeak) peak; the mix: \(rms) RMS")
        #expect(abs(h.monitorLevel - rms) / rms < 0.02)
        #expect(abs(h.monitorPeak - 0.5) < 0.01)
        #expect(h.farPeak == 0)

        var off = try LiveCycle(.echoCancel)
        off.run(mic: mic, far: mic)
        #expect(off.engine.health().monitorLevel == 0 && off.engine.health().monitorPeak == 0)
        #expect(abs(off.engine.health().farPeak - 0.5) < 0.01)
    }
}
