import Foundation
import Testing
import VoiceTestSupport

/// Plugins named as people name them (`plugins show dpl`), and `plugins list` narrowed by words
/// and category, against the system's LV2 folder (x42-plugins, lsp-plugins-lv2, swh-lv2).
@Suite(
    "voicerack plugins: by name, by URI end, by word; list filtered",
    .enabled(
        if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/dpl.lv2/manifest.ttl"),
        "x42-plugins (dpl.lv2) is not installed"))
struct PluginsFindTests {
    let system = ["LV2_PATH": "/usr/lib/lv2"]

    @Test("show dpl lists the two x42 limiters (64); dpl#mono and the plugin's name resolve; lilv stays quiet")
    func showByName() throws {
        let both = try CommandRunner.voicerack(["plugins", "show", "dpl"], environment: system)
        #expect(both.status == 64, "\(both.standardError)")
        #expect(
            both.standardError.contains("'dpl' names 2 installed LV2 plugins; give one of them: ")
                && both.standardError.contains(
                    "http://gareus.org/oss/lv2/dpl#mono (x42-dpl - Digital Peak Limiter Mono)")
                && both.standardError.contains("http://gareus.org/oss/lv2/dpl#stereo"), "\(both.standardError)")
        #expect(!both.standardError.contains("invalid URI"), "\(both.standardError)")
        for name in ["dpl#mono", "x42-dpl - Digital Peak Limiter Mono", "X42-DPL - digital peak limiter mono"] {
            let r = try CommandRunner.voicerack(["plugins", "show", name], environment: system)
            #expect(r.status == 0, "\(name): \(r.standardError)")
            #expect(r.standardOutput.contains("http://gareus.org/oss/lv2/dpl#mono"), "\(name): \(r.standardOutput)")
            #expect(r.standardOutput.contains("latency: 64 samples at 48000 Hz"), "\(name): \(r.standardOutput)")
            #expect(
                !r.standardError.contains("invalid URI") && !r.standardError.contains("error:"), "\(r.standardError)")
        }
        // A mistyped end is unknown (65), with the plugin it nearly names.
        let typo = try CommandRunner.voicerack(["plugins", "show", "dpl#mon"], environment: system)
        #expect(typo.status == 65)
        #expect(
            typo.standardError.contains("did you mean 'http://gareus.org/oss/lv2/dpl#mono'?"), "\(typo.standardError)")
        #expect(!typo.standardError.contains("invalid URI"), "\(typo.standardError)")
    }

    @Test("list takes words and a category; rows sorted by category, then name")
    func listFiltered() throws {
        let all = try CommandRunner.voicerack(["plugins", "list"], environment: system)
        #expect(all.status == 0)
        // Every plugin is instantiated for its latency; lilv's lines about the libraries that do
        // not load (Debian's swh mbeq: undefined fftwf symbols) stay off the terminal.
        #expect(
            all.standardError.split(separator: "\n").allSatisfy { $0.hasPrefix("voicerack: ") }, "\(all.standardError)")
        let total = all.standardOutput.split(separator: "\n").count - 1
        let limiters = try CommandRunner.voicerack(["plugins", "list", "limiter"], environment: system)
        #expect(limiters.status == 0, "\(limiters.standardError)")
        let rows = limiters.standardOutput.split(separator: "\n").dropFirst()
        #expect(rows.count >= 3 && rows.count < total / 4, "\(rows.count) of \(total)")
        #expect(rows.allSatisfy { $0.lowercased().contains("limiter") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("http://gareus.org/oss/lv2/dpl#mono ") })
        #expect(limiters.standardError.contains("\(rows.count) of \(total) plugins"), "\(limiters.standardError)")
        let x42 = try CommandRunner.voicerack(["plugins", "list", "x42", "limiter"], environment: system)
        let x42Rows = x42.standardOutput.split(separator: "\n").dropFirst()
        #expect(x42Rows.count == 2, "\(x42Rows)")
        let category = try CommandRunner.voicerack(["plugins", "list", "--category", "limiter"], environment: system)
        let categoryRows = category.standardOutput.split(separator: "\n").dropFirst()
        #expect(!categoryRows.isEmpty && categoryRows.allSatisfy { $0.contains(" Limiter ") }, "\(categoryRows)")
        // Sorted by category, then name: the categories come in order.
        let header = all.standardOutput.split(separator: "\n")[0]
        let column = try #require(header.range(of: "CATEGORY")).lowerBound
        let offset = header.distance(from: header.startIndex, to: column)
        let categories = all.standardOutput.split(separator: "\n").dropFirst().map {
            String($0.dropFirst(offset).prefix { $0 != " " })
        }
        #expect(categories == categories.sorted(), "\(categories)")
    }
}

extension PluginsFindTests {
    @Test(
        "show labels a choice's values (lv2:scalePoint) beside their numbers, and gives each control's unit",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/lsp-plugins.lv2/compressor_mono.ttl"),
            "lsp-plugins-lv2 is not installed"))
    func scalePointLabels() throws {
        let r = try CommandRunner.voicerack(["plugins", "show", "LSP Compressor Mono"], environment: system)
        #expect(r.status == 0, "\(r.standardError)")
        let lines = r.standardOutput.split(separator: "\n").map(String.init)
        let mode = try #require(lines.firstIndex { $0.hasPrefix("  cm ") }, "\(r.standardOutput)")
        #expect(
            lines[mode + 1].trimmingCharacters(in: .whitespaces) == "values: 0 Down, 1 Up, 2 Boot", "\(lines[mode + 1])"
        )
        #expect(lines.contains { $0.hasPrefix("  at ") && $0.hasSuffix("default 20 ms") }, "\(r.standardOutput)")
        // LSP's linear gain (G, 1 = 0 dB) is given in dB as well: the attack threshold's
        // default 0.25119 is -12 dB.
        #expect(
            lines.contains { $0.hasPrefix("  al ") && $0.hasSuffix("default 0.25119 G (-60...0 dB, default -12 dB)") },
            "\(r.standardOutput)")
    }
}
