import Testing
import VoiceEngine

@testable import VoicePresets

/// Every kind of bad preset is reported with the file, the line, the full key and what is allowed.
@Suite struct PresetErrorTests {
    /// Writes `text` as `bad.toml`, loads it by path and returns the error (checking file and line).
    private func error(
        _ text: String, line: Int?, key: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PresetError? {
        let temporary = try TemporaryPresets()
        let path = try temporary.write("bad", text)
        guard let error = presetError({ () throws(PresetError) in try temporary.library.load(path) }) else {
            return nil
        }
        #expect(error.file == path, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.key == key, sourceLocation: sourceLocation)
        let prefix = line.map { "\(path):\($0): " } ?? "\(path): "
        #expect(error.description == prefix + error.message, sourceLocation: sourceLocation)
        return error
    }

    @Test func missingEquals() throws {
        let e = try error("[input]\ngain_db 3\n", line: 2, key: "input.gain_db")
        #expect(e?.message == "expected '=' after key 'input.gain_db'")
    }

    @Test func unterminatedString() throws {
        let e = try error("# comment\ndescription = \"never closed\n", line: 2, key: "description")
        #expect(e?.message == "unterminated string for 'description'; expected a closing \"")
        let literal = try error("[echo_canceller]\nreference = 'mono\n", line: 2, key: "echo_canceller.reference")
        #expect(literal?.message.hasPrefix("unterminated string for 'echo_canceller.reference'") == true)
    }

    @Test func otherSyntaxErrors() throws {
        #expect(try error("[input\n", line: 1, key: nil)?.message == "expected ']' to close section [input")
        #expect(try error("[a.b]\n", line: 1, key: nil)?.message.contains("single-level") == true)
        #expect(
            try error("\n\n[output]\ngain_db =\n", line: 4, key: "output.gain_db")?.message
                == "expected a value after 'output.gain_db ='")
        #expect(
            try error("[agc]\nenabled = yes\n", line: 2, key: "agc.enabled")?.message
                == "expected a string, number or boolean for 'agc.enabled', found 'yes' (strings need quotes)")
        #expect(
            try error("[agc]\ntarget_dbfs = -20 dB\n", line: 2, key: "agc.target_dbfs")?.message
                == "expected end of line or '#' comment after the value of 'agc.target_dbfs', found 'd'")
        #expect(
            try error("echo_canceller.tail_ms = 100\n", line: 1, key: "echo_canceller")?.message
                .contains("dotted keys are not supported") == true)
        #expect(
            try error("description = \"bad \\q escape\"\n", line: 1, key: "description")?.message
                .hasPrefix("invalid escape '\\q'") == true)
        #expect(try error("[input]\ngain_db = 1__0\n", line: 2, key: "input.gain_db") != nil)
        #expect(try error("[input]\ngain_db = 007\n", line: 2, key: "input.gain_db") != nil)
    }

    @Test func unknownSection() throws {
        let e = try error("description = \"x\"\n\n[echo]\ntail_ms = 100\n", line: 3, key: "echo")
        #expect(e?.message == "unknown section [echo] (did you mean [echo_canceller]?)")
        let far = try error("[zzz]\n", line: 1, key: "zzz")
        #expect(
            far?.message
                == "unknown section [zzz]; allowed: [jack], [pipewire], [input], [echo_canceller], [preprocessor], [agc], [monitor], [ducking], [backing], [recording], [stream], [chain], [equalizer], [gate], [compressor], [deesser], [limiter], [delay], [reverb], [output]"
        )
    }

    @Test func unknownKey() throws {
        let e = try error("[echo_canceller]\nenabled = true\ntail = 100\n", line: 3, key: "echo_canceller.tail")
        #expect(e?.message == "unknown key 'echo_canceller.tail' (did you mean 'tail_ms'?)")
        let typo = try error("[preprocessor]\nnoise_supress_db = -10\n", line: 2, key: "preprocessor.noise_supress_db")
        #expect(typo?.message == "unknown key 'preprocessor.noise_supress_db' (did you mean 'noise_suppress_db'?)")
        let far = try error("[agc]\nqqq = 1\n", line: 2, key: "agc.qqq")
        #expect(
            far?.message
                == "unknown key 'agc.qqq'; allowed in [agc]: enabled, target_dbfs, max_gain_db, speed_db_per_s, target_lufs"
        )
        let misplaced = try error("tail_ms = 100\n", line: 1, key: "tail_ms")
        #expect(misplaced?.message == "unknown key 'tail_ms' (it belongs under [echo_canceller])")
        let top = try error("descripton = \"x\"\n", line: 1, key: "descripton")
        #expect(top?.message == "unknown key 'descripton' (did you mean 'description'?)")
    }

    @Test func outOfRange() throws {
        let text = "description = \"x\"\n\n[echo_canceller]\nenabled = true\n\n# long room\ntail_ms = 5000\n"
        let e = try error(text, line: 7, key: "echo_canceller.tail_ms")
        #expect(e?.message == "echo_canceller.tail_ms = 5000 is out of range; allowed 20...1000 ms")
        let highpass = try error("[input]\nhighpass_hz = 10\n", line: 2, key: "input.highpass_hz")
        #expect(highpass?.message == "input.highpass_hz = 10 is out of range; allowed 0 (off) or 20...500 Hz")
        let frame = try error("[echo_canceller]\nframe_ms = 1.5\n", line: 2, key: "echo_canceller.frame_ms")
        #expect(frame?.message == "echo_canceller.frame_ms = 1.5 is out of range; allowed 0 (auto) or 2.5...40 ms")
        let target = try error("[agc]\ntarget_dbfs = -3\n", line: 2, key: "agc.target_dbfs")
        #expect(target?.message == "agc.target_dbfs = -3 is out of range; allowed -40...-6 dBFS")
    }

    @Test func wrongType() throws {
        let e = try error("[input]\n\n\n[preprocessor]\nvad = \"yes\"\n", line: 5, key: "preprocessor.vad")
        #expect(e?.message == "preprocessor.vad must be true or false, not \"yes\"")
        let number = try error("[output]\ngain_db = \"loud\"\n", line: 2, key: "output.gain_db")
        #expect(number?.message == "output.gain_db must be a number (-40...40 dB), not \"loud\"")
        let boolean = try error("[agc]\nmax_gain_db = true\n", line: 2, key: "agc.max_gain_db")
        #expect(boolean?.message == "agc.max_gain_db must be a number (0...30 dB), not true")
        let choice = try error("[echo_canceller]\nreference = \"quad\"\n", line: 2, key: "echo_canceller.reference")
        #expect(choice?.message == "echo_canceller.reference must be \"mono\" or \"stereo\", not \"quad\"")
        let description = try error("description = 3\n", line: 1, key: "description")
        #expect(description?.message == "description must be a string, not 3")
    }

    @Test func duplicates() throws {
        let key = try error("[agc]\nenabled = true\nenabled = false\n", line: 3, key: "agc.enabled")
        #expect(key?.message == "duplicate key 'agc.enabled' in [agc] (first on line 2)")
        let section = try error("[agc]\nenabled = true\n[output]\n[agc]\n", line: 4, key: nil)
        #expect(section?.message == "duplicate section [agc] (first on line 1)")
        let top = try error("base = \"raw\"\nbase = \"podcast\"\n", line: 2, key: "base")
        #expect(top?.message == "duplicate key 'base' in the top level (first on line 1)")
    }

    @Test func missingBase() throws {
        let e = try error("description = \"x\"\nbase = \"nope\"\n", line: 2, key: "base")
        #expect(e?.message.hasPrefix("base preset 'nope' not found; available: ") == true)
        #expect(
            e?.message.contains(
                "echo-cancel, echo-cancel-dfn, echo-cancel-speexdsp, echo-cancel-strong, karaoke, podcast, podcast-lv2, raw"
            )
                == true)
        #expect(e?.message.contains("bad") == false)  // the file itself is not offered as its own base
    }

    @Test func baseCycle() throws {
        let temporary = try TemporaryPresets()
        let a = try temporary.write("a", "base = \"b\"\n")
        try temporary.write("b", "# b extends c\nbase = \"c\"\n")
        let c = try temporary.write("c", "\n\nbase = \"a\"\n")
        let e = presetError { () throws(PresetError) in try temporary.library.load("a") }
        #expect(e?.file == c)
        #expect(e?.line == 3)
        #expect(e?.key == "base")
        #expect(e?.message == "base cycle: a -> b -> c -> a")
        #expect(e?.description == "\(c):3: base cycle: a -> b -> c -> a")
        let own = presetError { () throws(PresetError) in try temporary.library.check(a) }
        #expect(own?.message == "base cycle: a -> b -> c -> a")
    }

    @Test func baseChainDeeperThanTheLimitIsRefusedNamingTheChain() throws {
        let temporary = try TemporaryPresets()
        // p0 extends p1 ... p39 extends echo-cancel: 40 levels, far past the limit.
        for i in 0..<40 { try temporary.write("p\(i)", "base = \"\(i == 39 ? "echo-cancel" : "p\(i + 1)")\"\n") }
        let e = presetError { () throws(PresetError) in try temporary.library.load("p0") }
        let limit = PresetLibrary.maximumBaseDepth
        #expect(limit == 16)
        #expect(e?.key == "base")
        #expect(e?.file == temporary.directory + "/p\(limit).toml")
        #expect(e?.line == 1)
        let chain = (0...limit + 1).map { "p\($0)" }.joined(separator: " -> ")
        #expect(e?.message == "base chain deeper than \(limit) presets: \(chain); flatten it")
        // At the limit itself it loads: p24 -> ... -> p39 -> echo-cancel is 16 bases.
        let deepest = try temporary.library.load("p\(40 - limit)")
        #expect(deepest.configuration == (try temporary.library.load("echo-cancel")).configuration)
    }

    @Test func selfBase() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("loop", "base = \"loop\"\n")
        let e = presetError { () throws(PresetError) in try temporary.library.load("loop") }
        #expect(e?.message == "base cycle: loop -> loop")
    }

    @Test func badBaseInABaseNamesThatFile() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("top", "base = \"middle\"\n")
        let middle = try temporary.write("middle", "[agc]\nspeed_db_per_s = 0\n")
        let e = presetError { () throws(PresetError) in try temporary.library.load("top") }
        #expect(e?.file == middle)
        #expect(e?.line == 2)
        #expect(e?.description == "\(middle):2: agc.speed_db_per_s = 0 is out of range; allowed 0.5...30 dB/s")
    }

    @Test func unknownNameAndMissingFile() throws {
        let temporary = try TemporaryPresets()
        let e = presetError { () throws(PresetError) in try temporary.library.load("nope") }
        #expect(e?.file == "")
        #expect(e?.description.hasPrefix("preset 'nope' not found; available: ") == true)
        let missing = temporary.directory + "/absent.toml"
        let file = presetError { () throws(PresetError) in try temporary.library.load(missing) }
        #expect(file?.description == "\(missing): no such preset file")
    }
}

@Suite("Effect chain keys")
struct EffectChainKeyTests {
    @Test("chain.order names effects; unknown or repeated names are refused with the line")
    func chainOrder() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("ok", "[chain]\norder = \"gate, limiter\"\n[limiter]\nceiling_dbfs = -3\n")
        let c = try temporary.library.load("ok").configuration
        #expect(c.effectOrder == [.gate, .limiter])
        #expect(c.effectValues[EffectKind.limiter.index][0] == -3)
        try temporary.write("bad", "[chain]\norder = \"gate, fuzz\"\n")
        let e1 = #expect(throws: PresetError.self) { try temporary.library.load("bad") }
        #expect(e1?.line == 2 && e1?.message.contains("unknown unit 'fuzz'") == true)
        try temporary.write("twice", "[chain]\norder = \"gate, gate\"\n")
        let e2 = #expect(throws: PresetError.self) { try temporary.library.load("twice") }
        #expect(e2?.message.contains("each effect may appear once") == true)
        try temporary.write("range", "[limiter]\nceiling_dbfs = 3\n")
        let e3 = #expect(throws: PresetError.self) { try temporary.library.load("range") }
        #expect(e3?.description.contains(":2: limiter.ceiling_dbfs = 3 is out of range; allowed -24...0 dBFS") == true)
    }
}

@Suite("Monitor and ducking keys")
struct MonitorDuckingKeyTests {
    @Test("monitor and ducking sections set the engine's fields; a bad source is refused")
    func keys() throws {
        let temporary = try TemporaryPresets()
        try temporary.write(
            "m",
            "[monitor]\nenabled = true\nsource = \"processed\"\nvoice_pan = -0.5\n[ducking]\nenabled = true\ndepth_db = -18\n"
        )
        let c = try temporary.library.load("m").configuration
        #expect(c.monitor && c.monitorSource == .processed && c.monitorVoicePan == -0.5)
        #expect(c.ducking && c.duckingDepthDB == -18)
        try temporary.write("bad", "[monitor]\nsource = \"wet\"\n")
        let e = #expect(throws: PresetError.self) { try temporary.library.load("bad") }
        #expect(e?.description.contains(":2: monitor.source must be \"dry\" or \"processed\"") == true)
    }
}

@Suite("Recording format key")
struct RecordingFormatKeyTests {
    @Test("recording.format takes what libsndfile writes and names the choices otherwise")
    func format() throws {
        let temporary = try TemporaryPresets()
        try temporary.write("ok", "[recording]\nformat = \"flac:pcm24\"\n")
        #expect(try temporary.library.load("ok").session.recordingFormat == "flac:pcm24")
        try temporary.write("bad", "[recording]\nformat = \"wav:pcm12\"\n")
        let e = #expect(throws: PresetError.self) { try temporary.library.load("bad") }
        #expect(
            e?.description.contains(
                ":2: recording.format = \"wav:pcm12\": format 'wav:pcm12': unknown encoding; choose one of pcm16")
                == true, "\(String(describing: e))")
    }
}
