import Foundation
import VoiceLV2

/// The system's LV2 folder only (not ~/.lv2 or LV2_PATH), so the tests see exactly the plugins
/// scripts/install-deps.sh installs from Debian.
let systemLV2 = "/usr/lib/lv2"

/// One world for the whole test bundle: loading every bundle's data takes a while, and the
/// world's lock makes sharing it safe.
let world = LV2World(path: systemLV2)

/// The plugins the tests use, and the Debian package each comes from.
enum Plugins {
    /// swh-lv2: single-band parametric EQ; needs no feature at all.
    static let singlePara = "http://plugin.org.uk/swh-plugins/singlePara"
    /// swh-lv2: GVerb, mono in, stereo out.
    static let gverb = "http://plugin.org.uk/swh-plugins/gverb"
    /// x42-plugins: digital peak limiter (mono), hard-RT, needs URID map, has atom ports and
    /// reports its look-ahead latency.
    static let dpl = "http://gareus.org/oss/lv2/dpl#mono"
    /// lsp-plugins-lv2: gate (mono), needs URID map, has state and worker interfaces.
    static let lspGate = "http://lsp-plug.in/plugins/lv2/gate_mono"
    /// lsp-plugins-lv2: look-ahead limiter (mono), hard-RT, reports latency.
    static let lspLimiter = "http://lsp-plug.in/plugins/lv2/limiter_mono"
    /// swh-lv2: fast look-ahead limiter, stereo in and out, reports latency.
    static let swhLimiter = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"
}

extension LV2Unit {
    /// Runs `signal` through the unit in blocks of `block` samples; returns the output.
    func run(_ signal: [Float], block: Int) -> [Float] {
        var out = signal
        out.withUnsafeMutableBufferPointer { b in
            var start = 0
            while start < b.count {
                let n = Swift.min(block, b.count - start)
                process(b.baseAddress! + start, frames: n)
                start += n
            }
        }
        return out
    }
}

/// A unit for `uri` at 48 kHz with blocks of at most `block`, workers synchronous (offline).
func makeUnit(
    _ uri: String, block: Int = 256, controls: [String: Float] = [:], state: String? = nil
) throws -> LV2Unit {
    let unit = try LV2Unit(
        world: world, uri: uri,
        configuration: LV2Configuration(
            sampleRate: 48_000, maximumBlockSize: block, worker: .synchronous),
        savedState: state)
    for (symbol, value) in controls { try unit.setControl(symbol, value) }
    return unit
}
