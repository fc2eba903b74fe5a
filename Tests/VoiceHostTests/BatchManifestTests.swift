import Foundation
import Testing
import VoiceBatch
import VoiceHost

/// Manifests as TSV and JSON lines, and how a worker finds its share of one.
@Suite struct BatchManifestTests {
    @Test(
        "TSV: header and comments skipped, empty ref and preset mean none, settings split, paths from the manifest's folder"
    )
    func tsv() throws {
        let text = """
            mic\tref\tout\tpreset\tsettings
            # a comment

            a.wav\tfar.wav\tout/a.wav\techo-cancel\tcompressor.threshold_dbfs=-18; leveller.target_dbfs=-20
            /abs/b.wav\t-\tout/b.flac
            c.wav\t\tout/c.wav\t\t
            """
        let jobs = try BatchManifest.parse(text, name: "m.tsv", folder: "/data/show")
        #expect(jobs.count == 3)
        #expect(
            jobs[0]
                == BatchJob(
                    index: 0, line: 4, mic: "/data/show/a.wav", ref: "/data/show/far.wav", out: "/data/show/out/a.wav",
                    preset: "echo-cancel",
                    settings: [
                        .init(key: "compressor.threshold_dbfs", value: "-18"),
                        .init(key: "leveller.target_dbfs", value: "-20"),
                    ]))
        #expect(jobs[1] == BatchJob(index: 1, line: 5, mic: "/abs/b.wav", ref: nil, out: "/data/show/out/b.flac"))
        #expect(jobs[2].ref == nil && jobs[2].preset == nil && jobs[2].settings.isEmpty && jobs[2].index == 2)
    }

    @Test("JSON lines: fields, numbers and booleans as preset values; unknown fields and wrong types named")
    func jsonLines() throws {
        let text = """
            {"mic": "a.wav", "out": "a-out.wav", "preset": "podcast", "set": {"compressor.threshold_dbfs": -18.5, "monitor.enabled": true, "gate.threshold_dbfs": -50}}
            {"mic": "b.wav", "ref": null, "out": "b-out.wav"}
            """
        let jobs = try BatchManifest.parse(text, name: "m.jsonl", folder: "/w")
        #expect(jobs.count == 2)
        #expect(
            jobs[0].settings == [
                .init(key: "compressor.threshold_dbfs", value: "-18.5"),
                .init(key: "gate.threshold_dbfs", value: "-50"),
                .init(key: "monitor.enabled", value: "true"),
            ])
        #expect(jobs[1].ref == nil && jobs[1].out == "/w/b-out.wav")
        for (line, message) in [
            (#"{"mic": "a.wav", "out": "o.wav", "gain": 3}"#, "m.jsonl:1: unknown field 'gain'"),
            (#"{"mic": 3, "out": "o.wav"}"#, "m.jsonl:1: mic, ref, out and preset must be strings"),
            (#"{"mic": "a.wav"}"#, "m.jsonl:1: the job has no output file"),
            (#"{"mic": "a.wav", "out": "o.wav"#, "m.jsonl:1: not a JSON object"),
        ] {
            #expect(throws: HostError.self) { try BatchManifest.parse(line, name: "m.jsonl", folder: "/w") }
            do { _ = try BatchManifest.parse(line, name: "m.jsonl", folder: "/w") } catch {
                #expect(error.kind == .data && error.message.hasPrefix(message), "\(error.message)")
            }
        }
    }

    @Test("mixed forms, wrong column counts and two jobs with one output are refused, naming the line")
    func refusals() {
        let cases = [
            ("a.wav\t\to.wav\n{\"mic\": \"b.wav\", \"out\": \"p.wav\"}", "m:2: TSV and JSON lines are mixed"),
            ("a.wav\to.wav", "m:1: expected 3 to 5 tab-separated columns"),
            ("a.wav\t\to.wav\nb.wav\t\to.wav", "m:2: output /w/o.wav is also line 1's output"),
            ("a.wav\t\to.wav\t\tnot-a-setting", "m:1: setting 'not-a-setting' is not KEY=VALUE"),
        ]
        for (text, message) in cases {
            do {
                _ = try BatchManifest.parse(text, name: "m", folder: "/w")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
            }
        }
    }

    @Test("N shards take every job exactly once; Slurm's and Kubernetes' variables give the shard")
    func shards() throws {
        let jobs = (0..<23).map { BatchJob(index: $0, line: $0 + 1, mic: "m\($0)", ref: nil, out: "o\($0)") }
        for count in [1, 2, 4, 7] {
            let taken = (0..<count).flatMap { i in jobs.filter { BatchShard(index: i, count: count).includes($0) } }
            #expect(taken.map(\.index).sorted() == Array(0..<23))
        }
        #expect(try BatchShard(parsing: "3/4") == BatchShard(index: 3, count: 4))
        for bad in ["4/4", "-1/2", "1", "a/b", "1/0"] {
            #expect(throws: HostError.self) { try BatchShard(parsing: bad) }
        }
        let slurm = ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"]
        #expect(try BatchShard.fromEnvironment(slurm, count: nil) == BatchShard(index: 2, count: 4))
        #expect(
            try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "5"], count: 8) == BatchShard(index: 5, count: 8))
        #expect(try BatchShard.fromEnvironment([:], count: nil) == nil)
        #expect(throws: HostError.self) { try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "5"], count: nil) }
        #expect(throws: HostError.self) { try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "8"], count: 8) }
    }
}
