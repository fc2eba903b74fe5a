import Testing
import VoiceControl
import VoiceEngine

@testable import VoicePresets

/// Every documented range, generated from the descriptors (each effect unit's
/// `ParameterDescriptor`s and the engine keys of `PresetSchema`): both ends, written as the
/// messages print them, are accepted in a preset and by `set`; values just outside are refused.
@Suite struct RangeBoundaryTests {
    /// Every numeric key with its range, as users see it in `allowed`.
    static let numericKeys: [(key: PresetKey, range: ClosedRange<Double>, zero: String?)] =
        PresetSchema.keys.compactMap { key in
            guard case .number(_, let range, let zero) = key.kind else { return nil }
            return (key, range, zero)
        }

    /// A preset holding `key = text`.
    static func preset(_ key: PresetKey, _ text: String) -> String {
        "[\(key.section)]\n\(key.name) = \(text)\n"
    }

    /// Whether a preset line and a `set` command accept `text` for `key`; `set` is tried as
    /// typed (`--control`) and as the 32-bit float an OSC `f` carries, which must agree.
    static func accepted(_ key: PresetKey, _ text: String) -> (preset: Bool, set: Bool) {
        let preset =
            (try? PresetDefinition(path: "boundary.toml", text: Self.preset(key, text), pluginHost: lv2Host)) != nil
        func sets(_ value: LiveValue) -> Bool {
            (try? PresetEdit.setting(key.fullName, value, in: PresetSettings(), pluginHost: lv2Host)) != nil
        }
        let typed = sets(.word(text))
        #expect(Double(text).map { sets(.number(Double(Float($0)))) } == typed, "set \(key.fullName) \(text) as OSC f")
        return (preset, typed)
    }

    @Test func everyUnitParameterHasAKey() {
        for kind in EffectKind.allCases {
            for p in kind.parameters {
                let key = PresetSchema.key(section: kind.rawValue, name: p.id)
                #expect(key != nil, "\(kind.rawValue).\(p.id) has no preset key")
                guard case .number(_, let range, _)? = key?.kind else { continue }
                #expect(
                    PresetNumber.text(range.lowerBound) == PresetNumber.text(Double(p.range.lowerBound)))
                #expect(
                    PresetNumber.text(range.upperBound) == PresetNumber.text(Double(p.range.upperBound)))
            }
        }
        #expect(Self.numericKeys.count > 40)
    }

    @Test(arguments: numericKeys.map(\.key.fullName))
    func bothEndsAcceptedJustOutsideRefused(_ name: String) throws {
        let (key, range, zero) = try #require(Self.numericKeys.first { $0.key.fullName == name })
        for bound in [range.lowerBound, range.upperBound] {
            let text = PresetNumber.text(bound)
            #expect(
                key.allowed.contains(text), "\(name): \(text) is not what the message shows: \(key.allowed)"
            )
            let result = Self.accepted(key, text)
            #expect(result.preset, "\(name) = \(text) (its own documented bound) refused in a preset")
            #expect(result.set, "set \(name) \(text) (its own documented bound) refused")
        }
        let step = { (bound: Double) in max(abs(bound), 1) * 1e-3 }
        for outside in [
            range.lowerBound - step(range.lowerBound), range.upperBound + step(range.upperBound),
        ] {
            if zero != nil && outside == 0 { continue }
            let text = "\(outside)"
            let result = Self.accepted(key, text)
            #expect(!result.preset, "\(name) = \(text) (outside \(key.allowed)) accepted in a preset")
            #expect(!result.set, "set \(name) \(text) (outside \(key.allowed)) accepted")
        }
    }
}
