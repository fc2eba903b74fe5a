import Foundation
import VoiceHost

/// Reads a batch manifest: one job per line, as tab-separated columns or as JSON objects.
///
/// TSV: `mic<TAB>ref<TAB>out[<TAB>preset[<TAB>key=value;key=value]]`; an empty ref (or `-`) means
/// none, an empty preset the command's own. A first line starting `mic<TAB>` is a header.
/// JSON lines: `{"mic": "a.wav", "ref": "b.wav", "out": "c.wav", "preset": "podcast",
/// "set": {"compressor.threshold_dbfs": -18}}`. The two forms may not be mixed. Blank lines and
/// lines starting with `#` are skipped. Relative paths are taken from the manifest's folder, so
/// a manifest moves with its audio and reads the same from any worker's working folder.
///
/// - Realtime: never. Main thread.
public enum BatchManifest {
    /// Reads and checks the manifest at `path`; the error names the line at fault.
    public static func read(_ path: String) throws(HostError) -> [BatchJob] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HostError(.noInput, "manifest \(path) does not exist")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw HostError(.data, "manifest \(path) cannot be read as UTF-8 text")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(text, name: path, folder: folder)
    }

    /// Parses manifest text; `name` is used in messages, relative paths are resolved in `folder`.
    public static func parse(_ text: String, name: String, folder: String) throws(HostError) -> [BatchJob] {
        var jobs: [BatchJob] = []
        var json: Bool?
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let content = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let isJSON = trimmed.hasPrefix("{")
            if let json, json != isJSON {
                throw HostError(.data, "\(name):\(line): TSV and JSON lines are mixed; use one form per manifest")
            }
            json = isJSON
            if !isJSON, jobs.isEmpty, content.hasPrefix("mic\t") { continue }
            var job =
                isJSON
                ? try jsonJob(trimmed, name: name, line: line) : try tsvJob(String(content), name: name, line: line)
            job.index = jobs.count
            job.mic = resolve(job.mic, in: folder)
            job.ref = job.ref.map { resolve($0, in: folder) }
            job.out = resolve(job.out, in: folder)
            if let preset = job.preset, preset.contains("/") { job.preset = resolve(preset, in: folder) }
            jobs.append(job)
        }
        try checkOutputsDiffer(jobs, name: name)
        return jobs
    }

    private static func tsvJob(_ text: String, name: String, line: Int) throws(HostError) -> BatchJob {
        let columns = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard (3...5).contains(columns.count) else {
            throw HostError(
                .data,
                "\(name):\(line): expected 3 to 5 tab-separated columns (mic, ref, out, preset, settings), found \(columns.count)"
            )
        }
        let settings = try columns.count == 5 ? tsvSettings(columns[4], name: name, line: line) : []
        return try job(
            mic: columns[0], ref: columns[1], out: columns[2], preset: columns.count > 3 ? columns[3] : "",
            settings: settings, name: name, line: line)
    }

    private static func tsvSettings(_ text: String, name: String, line: Int) throws(HostError) -> [BatchJob.Setting] {
        try text.split(separator: ";").map { (pair) throws(HostError) in
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw HostError(.data, "\(name):\(line): setting '\(pair)' is not KEY=VALUE")
            }
            return BatchJob.Setting(key: parts[0], value: parts[1])
        }
    }

    /// A JSON line's fields.
    private struct JSONLine: Decodable {
        var mic: String?
        var ref: String?
        var out: String?
        var preset: String?
        var set: [String: JSONValue]?
    }

    /// A preset value in JSON: a number, true/false or a string.
    private enum JSONValue: Decodable {
        case text(String)

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let b = try? single.decode(Bool.self) {
                self = .text(b ? "true" : "false")
            } else if let n = try? single.decode(Double.self) {
                self = .text(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n))
            } else {
                self = .text(try single.decode(String.self))
            }
        }
    }

    private static func jsonJob(_ text: String, name: String, line: Int) throws(HostError) -> BatchJob {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw HostError(.data, "\(name):\(line): not a JSON object")
        }
        let known: Set = ["mic", "ref", "out", "preset", "set"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw HostError(.data, "\(name):\(line): unknown field '\(unknown)'; fields are mic, ref, out, preset, set")
        }
        let fields: JSONLine
        do { fields = try JSONDecoder().decode(JSONLine.self, from: Data(text.utf8)) } catch {
            throw HostError(
                .data,
                "\(name):\(line): mic, ref, out and preset must be strings, set an object of preset keys and numbers, true/false or strings"
            )
        }
        let settings = (fields.set ?? [:]).sorted { $0.key < $1.key }.map { pair in
            switch pair.value {
            case .text(let t): BatchJob.Setting(key: pair.key, value: t)
            }
        }
        return try job(
            mic: fields.mic ?? "", ref: fields.ref ?? "", out: fields.out ?? "", preset: fields.preset ?? "",
            settings: settings, name: name, line: line)
    }

    private static func job(
        mic: String, ref: String, out: String, preset: String, settings: [BatchJob.Setting], name: String, line: Int
    ) throws(HostError) -> BatchJob {
        guard !mic.isEmpty else { throw HostError(.data, "\(name):\(line): the job has no mic file") }
        guard !out.isEmpty else { throw HostError(.data, "\(name):\(line): the job has no output file") }
        return BatchJob(
            index: 0, line: line, mic: mic, ref: ref.isEmpty || ref == "-" ? nil : ref, out: out,
            preset: preset.isEmpty ? nil : preset, settings: settings)
    }

    private static func resolve(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).standardized.path
    }

    /// Two jobs writing one file would race across workers: refuse the manifest.
    private static func checkOutputsDiffer(_ jobs: [BatchJob], name: String) throws(HostError) {
        var seen: [String: Int] = [:]
        for job in jobs {
            if let first = seen[job.out] {
                throw HostError(.data, "\(name):\(job.line): output \(job.out) is also line \(first)'s output")
            }
            seen[job.out] = job.line
        }
    }
}
