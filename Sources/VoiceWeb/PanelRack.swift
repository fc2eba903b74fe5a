import VoiceControl

/// The panel's view of the session's keys as a rack: the chain's units in order with only their
/// own controls, the units that may be added, and every control with a readable label.
///
/// Built from `show`'s keys alone: the built-in units are the choices of `chain.order`, and a
/// section named after one of them is that unit's. Units not in the chain get no controls (a
/// set to them is refused by the session). `chain.order` is live: the session rebuilds the
/// chain off the process thread and swaps it in.
///
/// - Realtime: never; the server's tasks.
enum PanelRack {
    /// The key that orders the chain.
    static let chainKey = "chain.order"

    /// The setup's controls, chain and addable units from `keys`; `restartKeys` greys the rest.
    static func setup(
        _ keys: [LiveKey], restartKeys: Set<String>, presets: [String], preset: String
    ) -> PanelSetup {
        let order = keys.first { $0.key == chainKey }
        var units: [String] = []
        if case .list(let choices)? = order?.kind { units = choices }
        let chain = (order?.value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let shown = keys.filter { key in
            let section = String(key.key.prefix { $0 != "." })
            return !units.contains(section) || chain.contains(section)
        }
        let controls = shown.map { key in
            control(
                key, live: key.key == chainKey || !restartKeys.contains(key.key),
                ofUnit: units.contains(String(key.key.prefix { $0 != "." })))
        }
        return PanelSetup(controls: controls, presets: presets, preset: preset, chain: chain, units: units)
    }

    /// A key as the page draws it: a unit's 0–1 bypass is a switch, its detector a choice of two.
    /// `ofUnit`: the key is a chain unit's parameter (its help is the descriptor's name).
    static func control(_ key: LiveKey, live: Bool, ofUnit: Bool = false) -> PanelControl {
        var control: PanelControl
        switch key.kind {
        case .number(let minimum, let maximum, let unit, let zero):
            control = PanelControl(
                key: key.key, kind: .number, minimum: minimum, maximum: maximum, zero: zero, unit: unit,
                value: key.value, live: live, help: key.help)
            let name = key.key.split(separator: ".").last.map(String.init) ?? ""
            if minimum == 0 && maximum == 1 && unit.isEmpty {
                if name == "bypass" {
                    control.kind = .toggle
                    (control.onValue, control.offValue) = ("1", "0")
                } else if name == "detector" {
                    // The compressor's detector: 0 follows peaks, 1 the RMS over 10 ms.
                    control.kind = .choice
                    control.choices = ["0", "1"]
                    control.choiceLabels = ["peak", "RMS"]
                }
            }
        case .boolean:
            control = PanelControl(key: key.key, kind: .toggle, value: key.value, live: live, help: key.help)
        case .choice(let choices):
            control = PanelControl(
                key: key.key, kind: .choice, choices: choices, value: key.value, live: live, help: key.help)
        case .list, .text:
            control = PanelControl(key: key.key, kind: .text, value: key.value, live: live, help: key.help)
        }
        control.label = PanelLabel.text(key: key.key, unitName: ofUnit ? key.help : "")
        return control
    }
}

/// Readable names for keys: `speed_db_per_s` reads "Speed", `band1_q` "Band 1 Q"; the unit
/// of measure is shown beside the value, so it is taken out of the name.
///
/// - Realtime: never; any thread (pure functions).
enum PanelLabel {
    /// Suffixes that only say the unit (shown with the value), longest first.
    private static let unitSuffixes = ["_db_per_s", "_dbfs", "_db", "_ms", "_hz", "_ppm", "_percent", "_s"]

    /// A unit's parameter's help opens with its descriptor's name, then what its values mean
    /// and how a change reaches the signal ("Make-up gain; a change glides over 10 ms.",
    /// "Detector: 0 peak, 1 rms."): given as `unitName`, that name is used. Otherwise the key's
    /// name without its unit, spaced and capitalised.
    static func text(key: String, unitName: String = "") -> String {
        let declared = unitName.prefix { $0 != ";" && $0 != ":" }
        let declaredName = declared.hasSuffix(".") ? declared.dropLast() : declared
        if (1...3).contains(declaredName.split(separator: " ").count), !declaredName.contains("_") {
            return String(declaredName)
        }
        var name = String(key.split(separator: ".").last ?? Substring(key))
        for suffix in unitSuffixes where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        var spaced = ""
        var previous: Character = " "
        for c in name {
            if c == "_" {
                spaced.append(" ")
            } else {
                if c.isNumber && previous.isLetter { spaced.append(" ") }
                spaced.append(c)
            }
            previous = c
        }
        let fixed = spaced.split(separator: " ").map { word -> String in
            switch word {
            case "q": "Q"
            case "agc": "AGC"
            case "vad": "VAD"
            case "lv2": "LV2"
            default: String(word)
            }
        }.joined(separator: " ")
        return fixed.prefix(1).uppercased() + fixed.dropFirst()
    }
}
