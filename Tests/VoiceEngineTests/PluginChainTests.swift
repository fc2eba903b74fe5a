import Foundation
import Synchronization
import Testing
import VoiceEngine
import VoiceRT
import VoiceTestSupport
import VoiceUnits

/// Plugin units in the chain, through a `PluginHost` written here in Swift (the engine's side of
/// LV2 hosting, without lilv): control messages reach the plugin's port by name, its reported
/// latency is in the engine's and compensated offline, and the engine releases it.
@Suite("Plugin units in the chain", .serialized)
struct PluginChainTests {
    /// A plugin that delays by `delay` samples and applies a gain (port 3, in dB), reporting the
    /// delay as its latency.
    struct DelayGainState {
        var gainDB: Float = 0
        let delay: Int
        let history: UnsafeMutablePointer<Float>
        var position = 0
    }

    final class DelayGain {
        let state: UnsafeMutablePointer<DelayGainState>
        init(delay: Int) {
            let history = UnsafeMutablePointer<Float>.allocate(capacity: delay)
            history.initialize(repeating: 0, count: delay)
            state = .allocate(capacity: 1)
            state.initialize(to: DelayGainState(delay: delay, history: history))
        }
        deinit {
            PluginChainTests.released.add(1, ordering: .relaxed)
            state.pointee.history.deallocate()
            state.deallocate()
        }
    }

    static let released = Atomic<Int>(0)

    struct Host: PluginHost {
        let delay: Int
        func parameters(of uri: String, sampleRate: Double) throws(PluginError) -> [ParameterDescriptor] {
            guard uri == "urn:test:delay-gain" else { throw PluginError("no plugin '\(uri)'") }
            return [ParameterDescriptor(id: "gain", name: "Gain", range: -20...20, defaultValue: 0, unit: .decibels)]
        }

        func makeUnit(_ settings: PluginUnitSettings, spec: ProcessSpec) throws(PluginError) -> PreparedPlugin {
            _ = try parameters(of: settings.uri, sampleRate: spec.sampleRate)
            let plugin = DelayGain(delay: delay)
            plugin.state.pointee.gainDB = settings.values["gain"] ?? 0
            let unit = PluginUnit(
                context: UnsafeMutableRawPointer(plugin.state), owner: Unmanaged.passRetained(plugin).toOpaque(),
                run: { context, buffer, frames in
                    let s = context.assumingMemoryBound(to: DelayGainState.self)
                    let g = powf(10, s.pointee.gainDB / 20)
                    for i in 0..<frames {
                        let p = s.pointee.position
                        let out = s.pointee.history[p]
                        s.pointee.history[p] = buffer[i]
                        s.pointee.position = (p + 1) % s.pointee.delay
                        buffer[i] = g * out
                    }
                },
                setControl: { context, port, value in
                    if port == 3 { context.assumingMemoryBound(to: DelayGainState.self).pointee.gainDB = value }
                },
                latency: { context in context.assumingMemoryBound(to: DelayGainState.self).pointee.delay },
                release: { owner in Unmanaged<DelayGain>.fromOpaque(owner).release() })
            return PreparedPlugin(unit: unit, controls: [(symbol: "gain", port: 3)], notes: ["test plugin"])
        }
    }

    static func configuration(gainDB: Float) -> EngineConfiguration {
        var c = EngineConfiguration()
        c.chain = [.plugin("dg"), .builtIn(.limiter)]
        c.plugins = ["dg": PluginUnitSettings(uri: "urn:test:delay-gain", values: ["gain": gainDB])]
        return c
    }

    @Test("a plugin's latency adds to the engine's and is compensated offline; messages reach its port by name")
    func latencyAndControl() throws {
        let releasedBefore = Self.released.load(ordering: .relaxed)
        do {
            let engine = try VoiceEngine(
                configuration: Self.configuration(gainDB: -6), sampleRate: 48_000, blockSize: 256,
                pluginHost: Host(delay: 77))
            #expect(engine.latency == 77 + 240, "the plugin's 77 samples and the limiter's 5 ms look-ahead")
            #expect(engine.notes == ["test plugin"])
            let quiet = Signals.whiteNoise(count: 48_000, rms: 0.01, seed: 3)
            let out = OfflineRenderer(engine: engine).process(mic: quiet, reference: [])
            let g = powf(10, -6.0 / 20)
            #expect(zip(out[1_000...], quiet[1_000...]).allSatisfy { abs($0 - g * $1) < 1e-6 }, "sample-aligned, -6 dB")
            engine.post([ControlMessage("dg.gain", -12), ControlMessage("dg.nope", 1)])
            let later = OfflineRenderer(engine: engine).process(mic: quiet, reference: [])
            let level = Measure.levelDB(later, 4_800..<48_000) - Measure.levelDB(quiet, 4_800..<48_000)
            #expect(abs(level + 12) < 0.01)
            #expect(engine.health().parametersRejected == 1, "dg.nope is no control of the plugin")
        }
        #expect(Self.released.load(ordering: .relaxed) == releasedBefore + 1, "the engine released its plugin")
    }

    @Test("no host passed, an unknown plugin or a chain naming no section: the engine is not built")
    func refusals() throws {
        let none = #expect(throws: EngineError.self) {
            try VoiceEngine(configuration: Self.configuration(gainDB: 0), sampleRate: 48_000, blockSize: 256)
        }
        #expect(none?.description.contains("needs LV2 hosting") == true)
        var unknown = Self.configuration(gainDB: 0)
        unknown.plugins["dg"]?.uri = "urn:test:nothing"
        let e = #expect(throws: EngineError.self) {
            try VoiceEngine(configuration: unknown, sampleRate: 48_000, blockSize: 256, pluginHost: Host(delay: 8))
        }
        #expect(e?.description == "no plugin 'urn:test:nothing'")
        var missing = Self.configuration(gainDB: 0)
        missing.plugins = [:]
        let m = #expect(throws: EngineError.self) {
            try VoiceEngine(configuration: missing, sampleRate: 48_000, blockSize: 256, pluginHost: Host(delay: 8))
        }
        #expect(m?.description.contains("no [dg] section") == true)
    }

    @Test("two units whose controls hash alike: the engine is not built, both names given, both plugins released")
    func clashingControlNames() throws {
        // FNV-1a (32 bits) of these two names is 4018172913 for both (found by search).
        #expect(ParameterID("u31992.gain") == ParameterID("u605430.gain"))
        var clashing = EngineConfiguration()
        clashing.chain = [.plugin("u31992"), .plugin("u605430")]
        clashing.plugins = [
            "u31992": PluginUnitSettings(uri: "urn:test:delay-gain"),
            "u605430": PluginUnitSettings(uri: "urn:test:delay-gain"),
        ]
        let releasedBefore = Self.released.load(ordering: .relaxed)
        let e = #expect(throws: EngineError.self) {
            try VoiceEngine(configuration: clashing, sampleRate: 48_000, blockSize: 256, pluginHost: Host(delay: 8))
        }
        #expect(e?.description.contains("'u31992.gain' and 'u605430.gain'") == true, "\(String(describing: e))")
        #expect(Self.released.load(ordering: .relaxed) == releasedBefore + 2, "both plugins released")
        // Renamed, the same chain builds.
        clashing.chain = [.plugin("u31992"), .plugin("u605431")]
        clashing.plugins["u605431"] = clashing.plugins.removeValue(forKey: "u605430")
        _ = try VoiceEngine(configuration: clashing, sampleRate: 48_000, blockSize: 256, pluginHost: Host(delay: 8))
    }
}
