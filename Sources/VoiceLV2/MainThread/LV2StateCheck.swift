import CLilv

/// Checks an LV2 state (Turtle text, as a preset's `state` keeps it) before lilv reads it.
///
/// lilv takes the subject typed `pset:Preset` on trust: a state that is valid Turtle without
/// one crashes it (a null node handed to sord). This reads the text with serd, lilv's own
/// parser, and finds what lilv needs: Turtle without errors and a preset subject named by a URI.
/// Its reasons quote nothing from the text (a state may come from a remote surface).
///
/// - Realtime: never; any thread (serd holds no global state).
public enum LV2StateCheck {
    /// LV2's preset class and RDF's type, as serd expands `pset:Preset` and `a`.
    static let presetClass = "http://lv2plug.in/ns/ext/presets#Preset"
    static let rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

    /// Why lilv could not load `text` as a state, or nil when it can.
    public static func problem(in text: String) -> String? {
        let reading = Reading()
        let handle = Unmanaged.passUnretained(reading).toOpaque()
        let status = withExtendedLifetime(reading) { () -> SerdStatus in
            guard let reader = serd_reader_new(SERD_TURTLE, handle, nil, onBase, onPrefix, onStatement, nil) else {
                return SERD_ERR_UNKNOWN
            }
            defer { serd_reader_free(reader) }
            // Errors are counted here, not printed: serd would write them to standard error.
            serd_reader_set_error_sink(reader, onError, handle)
            return serd_reader_read_string(reader, text)
        }
        if status != SERD_SUCCESS || reading.errors > 0 { return "it is not valid Turtle" }
        if !reading.foundPreset { return "it has no pset:Preset subject named by a URI (lilv loads a state from one)" }
        return nil
    }

    /// The prefixes lilv declares before it reads a state (its `set_prefixes`), and leaves out
    /// when it writes one: `pset:Preset` in a saved state means LV2's preset class.
    static let prefixes = [
        ("atom", "http://lv2plug.in/ns/ext/atom#"), ("lv2", "http://lv2plug.in/ns/lv2core#"),
        ("pset", "http://lv2plug.in/ns/ext/presets#"), ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
        ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"), ("state", "http://lv2plug.in/ns/ext/state#"),
        ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ]

    /// What the reader saw; the sinks reach it through serd's handle.
    final class Reading {
        let environment = serd_env_new(nil)
        var errors = 0
        var foundPreset = false

        init() {
            guard let environment else { return }
            for (name, uri) in LV2StateCheck.prefixes { serd_env_set_prefix_from_strings(environment, name, uri) }
        }

        deinit { if let environment { serd_env_free(environment) } }

        /// `node` with prefixes and the base applied, as a string; nil for what is not a URI.
        func expanded(_ node: UnsafePointer<SerdNode>) -> String? {
            switch node.pointee.type {
            case SERD_URI, SERD_CURIE:
                guard let environment else { return nil }
                var full = serd_env_expand_node(environment, node)
                defer { serd_node_free(&full) }
                guard let bytes = full.buf else { return nil }
                return String(cString: bytes)
            default:
                return nil
            }
        }
    }
}

private func reading(_ handle: UnsafeMutableRawPointer?) -> LV2StateCheck.Reading {
    Unmanaged<LV2StateCheck.Reading>.fromOpaque(handle!).takeUnretainedValue()
}

private let onError: SerdErrorSink = { handle, _ in
    reading(handle).errors += 1
    return SERD_SUCCESS
}

private let onBase: SerdBaseSink = { handle, uri in
    guard let environment = reading(handle).environment else { return SERD_ERR_UNKNOWN }
    return serd_env_set_base_uri(environment, uri)
}

private let onPrefix: SerdPrefixSink = { handle, name, uri in
    guard let environment = reading(handle).environment else { return SERD_ERR_UNKNOWN }
    return serd_env_set_prefix(environment, name, uri)
}

private let onStatement: SerdStatementSink = { handle, _, _, subject, predicate, object, _, _ in
    let state = reading(handle)
    if subject.pointee.type == SERD_URI || subject.pointee.type == SERD_CURIE,
        state.expanded(predicate) == LV2StateCheck.rdfType, state.expanded(object) == LV2StateCheck.presetClass
    {
        state.foundPreset = true
    }
    return SERD_SUCCESS
}
