import Foundation
import VoiceEngine
import VoiceUnits

/// One schema entry: a key of a section, what it accepts and the `PresetSettings` field it sets.
///
/// - Realtime: never.
struct PresetKey: Sendable {
    enum Kind: Sendable {
        /// A number within `range` (integers accepted); `zero` names what 0 means when 0 lies
        /// outside the range and is still allowed ("off", "auto").
        case number(WritableKeyPath<PresetSettings, Float> & Sendable, range: ClosedRange<Double>, zero: String?)
        case boolean(WritableKeyPath<PresetSettings, Bool> & Sendable)
        /// One of `choices`; `get`/`set` convert between the string and the field's enum.
        case choice(
            [String], get: @Sendable (PresetSettings) -> String,
            set: @Sendable (inout PresetSettings, String) -> Void)
        /// Free text; `check` returns why a value is wrong (nil when it is fine).
        case text(
            String, get: @Sendable (PresetSettings) -> String,
            set: @Sendable (inout PresetSettings, String) -> Void, check: @Sendable (String) -> String?)
        /// A comma-separated list of distinct names from `choices` (the effect chain's order).
        case list(
            [String], get: @Sendable (PresetSettings) -> [String],
            set: @Sendable (inout PresetSettings, [String]) -> Void)
    }

    let section: String
    let name: String
    /// Unit for numbers ("dB", "ms"); empty otherwise.
    let unit: String
    let help: String
    let kind: Kind
    /// The live parameter the key sets, when a running engine takes it as one parameter change
    /// (an effect unit's parameter, an engine control); nil for the rest (switches, choices,
    /// lists, text and the session's keys), which go through the whole-configuration path.
    var live: LiveParameter? = nil

    /// Keys whose values are never repeated in messages (a URL with a password in it).
    static let mayHoldSecrets: Set = ["stream.url"]

    /// `section.name`, the form used in every message.
    var fullName: String { "\(section).\(name)" }

    /// What is allowed, as shown in messages and rendered comments: `20...1000 ms`,
    /// `0 (off) or 20...500 Hz`, `true or false`, `"mono" or "stereo"`.
    var allowed: String {
        switch kind {
        case .number(_, let range, let zero):
            let span =
                "\(PresetNumber.text(range.lowerBound))...\(PresetNumber.text(range.upperBound))"
                + (unit.isEmpty ? "" : " \(unit)")
            return zero.map { "0 (\($0)) or \(span)" } ?? span
        case .boolean:
            return "true or false"
        case .choice(let choices, _, _):
            let quoted = choices.map { "\"\($0)\"" }
            return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
        case .text(let description, _, _, _):
            return description
        case .list(let choices, _, _):
            return "a comma-separated list of distinct names from: " + choices.joined(separator: ", ")
                + " or LV2 units' sections"
        }
    }

    static func number(
        _ section: String, _ name: String, _ field: WritableKeyPath<PresetSettings, Float> & Sendable,
        _ range: ClosedRange<Double>, _ unit: String, _ help: String, zero: String? = nil
    ) -> PresetKey {
        PresetKey(section: section, name: name, unit: unit, help: help, kind: .number(field, range: range, zero: zero))
    }

    /// A number key that is a unit's declared parameter: its name, range and unit of measure come
    /// from the declaration (`p`), so they are written once.
    static func number(
        _ section: String, _ p: ParameterDescriptor, _ field: WritableKeyPath<PresetSettings, Float> & Sendable,
        _ help: String, zero: String? = nil
    ) -> PresetKey {
        .number(
            section, p.id, field, Double(p.range.lowerBound)...Double(p.range.upperBound), p.unit.rawValue, help,
            zero: zero)
    }

    /// A number key that is one of the engine's declared controls: its name, range, unit, help
    /// and what 0 means come from the declaration (`EngineControl`), so they are written once.
    static func engine(_ control: EngineControl) -> PresetKey {
        let key = control.key!
        // Through `engine` to the declared field; a key path of Sendable parts is Sendable, the
        // composition only loses the marker (which has no run-time form to convert).
        let field = unsafeBitCast(
            (\PresetSettings.engine).appending(path: control.field!),
            to: (WritableKeyPath<PresetSettings, Float> & Sendable).self)
        var made = PresetKey.number(
            key.section, key.name, field, Double(key.range.lowerBound)...Double(key.range.upperBound),
            key.unit.rawValue, key.help, zero: key.zero)
        made.live = .engine(control)
        return made
    }

    static func boolean(
        _ section: String, _ name: String, _ field: WritableKeyPath<PresetSettings, Bool> & Sendable,
        _ help: String
    ) -> PresetKey {
        PresetKey(section: section, name: name, unit: "", help: help, kind: .boolean(field))
    }

    /// A key whose string values are the raw values of the field's enum, in declaration order.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ section: String, _ name: String, _ field: WritableKeyPath<PresetSettings, Choice> & Sendable,
        _ help: String
    ) -> PresetKey where Choice.RawValue == String {
        let kind = Kind.choice(
            Choice.allCases.map(\.rawValue),
            get: { $0[keyPath: field].rawValue },
            set: { configuration, text in
                if let value = Choice(rawValue: text) { configuration[keyPath: field] = value }
            })
        return PresetKey(section: section, name: name, unit: "", help: help, kind: kind)
    }
}

/// A validated value for one key, ready to apply.
enum PresetValue: Sendable, Equatable {
    case number(Float)
    case boolean(Bool)
    case choice(String)
    case list([String])
    case text(String)
}

extension PresetKey {
    /// Checks `value` against the key's type and range; the error names `file`, line and full key.
    func validate(_ value: TOMLValue, file: String) throws(PresetError) -> PresetValue {
        func failure(_ message: String) -> PresetError {
            PresetError(file: file, line: value.line, key: fullName, message: message)
        }
        switch kind {
        case .number(_, let range, let zero):
            let number: Double
            switch value.kind {
            case .integer(let i): number = Double(i)
            case .float(let d): number = d
            default: throw failure("\(fullName) must be a number (\(allowed)), not \(value.text)")
            }
            // Compared as Float, the type of the field it sets and of the units' descriptors:
            // a descriptor's Float 0.1 widened to Double is 0.100000001, which the written 0.1
            // (its own documented bound) would fall below.
            let floatRange = Float(range.lowerBound)...Float(range.upperBound)
            guard floatRange.contains(Float(number)) || (zero != nil && number == 0) else {
                throw failure("\(fullName) = \(value.text) is out of range; allowed \(allowed)")
            }
            return .number(Float(number))
        case .boolean:
            guard case .boolean(let flag) = value.kind else {
                throw failure("\(fullName) must be true or false, not \(value.text)")
            }
            return .boolean(flag)
        case .choice(let choices, _, _):
            guard case .string(let text) = value.kind, choices.contains(text) else {
                throw failure("\(fullName) must be \(allowed), not \(value.text)")
            }
            return .choice(text)
        case .text(_, _, _, let check):
            guard case .string(let text) = value.kind else {
                throw failure("\(fullName) must be a string (\(allowed)), not \(value.text)")
            }
            if let problem = check(text) {
                // A URL may carry a password by mistake: never echo it.
                let shown = Self.mayHoldSecrets.contains(fullName) ? "" : " = \(value.text)"
                throw failure("\(fullName)\(shown): \(problem)")
            }
            return .text(text)
        case .list(let choices, _, _):
            guard case .string(let text) = value.kind else {
                throw failure("\(fullName) must be a string: \(allowed), not \(value.text)")
            }
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            // Other names are LV2 units, checked against the plugin sections once the base is
            // folded in (`PresetLibrary.checkChain`); here they only have to be section names.
            for name in names where !choices.contains(name) && !TOMLDocument.isBareName(name) {
                throw failure("\(fullName): unknown effect '\(name)'; choose from \(choices.joined(separator: ", "))")
            }
            guard Set(names).count == names.count else {
                throw failure("\(fullName): each effect may appear once, got \(value.text)")
            }
            return .list(names)
        }
    }

    /// Writes a value produced by `validate` into `configuration`.
    func apply(_ value: PresetValue, to configuration: inout PresetSettings) {
        switch (kind, value) {
        case (.number(let field, _, _), .number(let number)): configuration[keyPath: field] = number
        case (.boolean(let field), .boolean(let flag)): configuration[keyPath: field] = flag
        case (.choice(_, _, let set), .choice(let text)): set(&configuration, text)
        case (.list(_, _, let set), .list(let names)): set(&configuration, names)
        case (.text(_, _, let set, _), .text(let text)): set(&configuration, text)
        default: assertionFailure("\(fullName): value \(value) does not match the key's kind")
        }
    }

    /// The key's current value in `configuration` as TOML source text.
    func tomlValue(in configuration: PresetSettings) -> String {
        switch kind {
        case .number(let field, _, _): PresetNumber.text(Double(configuration[keyPath: field]))
        case .boolean(let field): configuration[keyPath: field] ? "true" : "false"
        case .choice(_, let get, _): "\"\(get(configuration))\""
        case .list(_, let get, _): "\"\(get(configuration).joined(separator: ", "))\""
        case .text(_, let get, _, _): PresetRenderer.quoted(get(configuration))
        }
    }
}

/// Number formatting shared by messages and the renderer.
enum PresetNumber {
    /// `20` rather than `20.0`; otherwise the shortest text that reads back as the same `Float`.
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return Float(value).description
    }
}
