import Foundation
import Testing
import VoiceEngine
import VoiceLV2
import VoiceTestSupport

@testable import VoicePresets

/// An LV2 unit's saved state kept in a preset (`state = "..."`): the tuned plugin comes back
/// exactly in the engine, and `presets show` prints a preset that reads back the same.
@Suite("LV2 state in presets")
struct LV2PresetStateTests {
    static let gate = "http://lsp-plug.in/plugins/lv2/gate_mono"

    /// The engine's voice for `x` with `configuration` (48 kHz, blocks of 256).
    func render(_ configuration: EngineConfiguration, _ x: [Float]) throws -> [Float] {
        let engine = try VoiceEngine(
            configuration: configuration, sampleRate: 48_000, blockSize: 256, pluginHost: lv2Host)
        var y = [Float](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { input in
            y.withUnsafeMutableBufferPointer { output in
                for start in stride(from: 0, to: x.count - 255, by: 256) {
                    engine.render(
                        mic: input.baseAddress! + start, farLeft: nil, farRight: nil,
                        voice: output.baseAddress! + start, frames: 256)
                }
            }
        }
        return y
    }

    @Test("a tuned LSP gate kept as state in a preset runs exactly as the same controls given by symbol")
    func stateInPreset() throws {
        let controls: [String: Float] = ["gt": 0.02, "gr": 0.005, "at": 5, "rt": 70]
        let world = LV2World(path: "/usr/lib/lv2")
        let tuned = try LV2Unit(
            world: world, uri: Self.gate,
            configuration: LV2Configuration(sampleRate: 48_000, maximumBlockSize: 256, worker: .synchronous))
        for (symbol, value) in controls { try tuned.setControl(symbol, value) }
        let state = tuned.savedState()

        let temporary = try TemporaryPresets()
        let section = "[chain]\norder = \"g\"\n\n[g]\nlv2 = \"\(Self.gate)\"\n"
        try temporary.write("stated", section + "state = \(PresetRenderer.quoted(state))\n")
        try temporary.write(
            "controls",
            section + controls.map { "\($0.key) = \(PresetNumber.text(Double($0.value)))" }.joined(separator: "\n"))
        try temporary.write("plain", section)
        let stated = try temporary.library.load("stated")
        #expect(stated.configuration.plugins["g"]?.state == state)
        // `presets show` prints it back: the rendered preset reads as the same configuration.
        try temporary.write("shown", PresetRenderer.toml(stated, pluginHost: lv2Host))
        #expect(try temporary.library.load("shown").configuration == stated.configuration)

        let x = Signals.speechLike(count: 48_000, sampleRate: 48_000, rms: 0.05, seed: 11)
        let fromState = try render(stated.configuration, x)
        let fromControls = try render(try temporary.library.load("controls").configuration, x)
        let untuned = try render(try temporary.library.load("plain").configuration, x)
        #expect(fromState == fromControls, "the state restores the tuned controls")
        #expect(fromState != untuned, "the tuning changes the output, so the comparison can fail")
    }
}
