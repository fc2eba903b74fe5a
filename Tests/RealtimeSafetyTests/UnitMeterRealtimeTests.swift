import CRealtimeCheck
import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

/// The chain's per-unit meters published inside RealtimeSanitizer's real-time region: every
/// dynamics unit (gate, compressor, de-esser, limiter) and one without a reduction (the
/// equalizer) metered onto the board each cycle, through the one render cycle.
@Suite("Real-time safety: unit meters", .serialized)
struct UnitMeterRealtimeTests {
    @Test("metering each chain unit's peak and gain reduction does nothing real-time unsafe")
    func unitMetersAreRealtimeSafe() throws {
        var configuration = EngineConfiguration()
        configuration.effectOrder = [.gate, .compressor, .deesser, .limiter, .equalizer]
        let rig = try CycleRig(configuration: configuration, rate: 48_000, block: 128, referenceChannels: 1)
        // A -6 dBFS peak 1 kHz tone: 10.5 dB over the compressor's curve; 2 s, the first 0.5 s
        // outside the region.
        let tone = Signals.sine(count: 96_000, frequency: 1_000, sampleRate: 48_000, amplitude: 0.5)
        let silence = [Float](repeating: 0, count: tone.count)
        let cycles = rig.renderChecked(mic: tone, far: silence, warmBlocks: 188)
        #expect(cycles > 500)
        let units = rig.host.status().units
        #expect(units.map(\.unit) == ["gate", "compressor", "deesser", "limiter", "equalizer"])
        #expect(abs(units[1].reading.reductionDB - 10.5) < 1, "compressor \(units[1].reading.reductionDB) dB")
        #expect(units[4].reading.reductionDB.isNaN && units[4].reading.peak > 0.05)
    }
}
