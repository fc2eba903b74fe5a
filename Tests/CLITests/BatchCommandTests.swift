import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --manifest` as a job for GNU parallel and Slurm arrays: 200 short files
/// (one corrupt, one unreadable) split over two workers, rerun after a kill, redone in part.
@Suite(
    "voicerack process --manifest",
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel"),
        "GNU parallel is not installed (scripts/install-deps.sh)"))
struct BatchCommandTests {
    let folder: TemporaryFolder
    static let jobs = 200
    static let corrupt = 51
    static let unreadable = 120

    init() throws { folder = try TemporaryFolder() }

    func name(_ i: Int) -> String { String(format: "j%03d", i) }

    /// 200 half-second mic files (every tenth with a far end, through echo-cancel), one corrupt
    /// (a WAV header over garbage) and one unreadable (a folder where the file should be); the
    /// manifest lists them with relative paths. Returns the manifest's path.
    func makeManifest() throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        var lines = ["mic\tref\tout\tpreset\tsettings"]
        let far = Signals.speechLike(count: 8_000, sampleRate: 16_000, rms: 0.1, seed: 99)
        try TestFiles.wav(folder.file("in/far.wav"), [far], rate: 16_000)
        for i in 0..<Self.jobs {
            let mic = "in/\(name(i)).wav"
            let voice = Signals.speechLike(
                count: 8_000, sampleRate: 16_000, rms: 0.05 + Float(i % 5) * 0.02, seed: UInt64(i))
            switch i {
            case Self.corrupt:
                try (Data("RIFF\u{24}\0\0\0WAVEfmt ".utf8) + Data(repeating: 0xA5, count: 300)).write(
                    to: URL(fileURLWithPath: folder.file(mic)))
            case Self.unreadable:
                try FileManager.default.createDirectory(atPath: folder.file(mic), withIntermediateDirectories: false)
            case _ where i % 10 == 0:
                // The talker over the far end's echo, 20 ms late.
                let echo = Signals.delayed(far.map { $0 * 0.3 }, by: 320).prefix(8_000)
                try TestFiles.wav(folder.file(mic), [zip(voice, echo).map { $0 + $1 }], rate: 16_000)
            default:
                try TestFiles.wav(folder.file(mic), [voice], rate: 16_000)
            }
            let echoJob = i % 10 == 0
            lines.append(
                [
                    mic, echoJob ? "in/far.wav" : "-", "out/\(name(i)).wav", echoJob ? "echo-cancel" : "",
                    i % 7 == 0 ? "compressor.threshold_dbfs=-20" : "",
                ].joined(separator: "\t"))
        }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let manifest = folder.file("manifest.tsv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return manifest
    }

    /// Runs the manifest over two workers with GNU parallel; returns parallel's exit status and
    /// the report lines (fresh files each run).
    func runParallel(_ manifest: String, run: Int) throws -> (status: Int32, lines: [[String: Any]]) {
        let reports = (0..<2).map { folder.file("report-\(run)-\($0).jsonl") }
        let r = try CommandRunner.run(
            "/usr/bin/parallel",
            [
                "--will-cite", "-j", "2", CommandRunner.voicerack, "process", "--preset", "podcast", "--manifest",
                manifest, "--loudness", "-16", "--shard", "{}/2", "--report", folder.file("report-\(run)-{}.jsonl"),
                ":::", "0", "1",
            ])
        let lines = try reports.flatMap { path in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        return (r.status, lines)
    }

    func statuses(_ lines: [[String: Any]]) -> [String: Int] {
        lines.reduce(into: [:]) { $0[$1["status"] as? String ?? "?", default: 0] += 1 }
    }

    @Test("two workers under GNU parallel: 198 done, the 2 bad files reported; a rerun skips 198; 5 deleted are redone")
    func parallelShards() throws {
        let manifest = try makeManifest()
        let first = try runParallel(manifest, run: 1)
        // parallel exits with the number of workers that failed: each had one bad file.
        #expect(first.status == 2)
        #expect(first.lines.count == Self.jobs)
        #expect(statuses(first.lines) == ["done": 198, "failed": 2])
        let failed = first.lines.filter { $0["status"] as? String == "failed" }
        #expect(Set(failed.compactMap { $0["line"] as? Int }) == [Self.corrupt + 2, Self.unreadable + 2])
        for line in failed {
            let error = line["error"] as? String ?? ""
            #expect(error.contains((line["input"] as? String) ?? "?"), "\(line)")
        }
        let outputs = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).filter {
            !$0.hasPrefix(".")
        }
        #expect(
            Set(outputs)
                == Set(
                    (0..<Self.jobs).filter { ![Self.corrupt, Self.unreadable].contains($0) }.map { "\(name($0)).wav" }))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).filter { $0.hasPrefix(".") }.isEmpty
        )
        for line in first.lines where line["status"] as? String == "done" {
            let before = line["loudness_before_lufs"] as? Double ?? 0
            let after = line["loudness_after_lufs"] as? Double ?? 0
            if let note = line["note"] as? String, note.hasPrefix("gain capped") {
                // A talker the canceller's first half second leaves quiet: the gain stops at its cap.
                #expect(note.hasPrefix("gain capped at +30 dB") && abs(after - before - 30) <= 0.1, "\(line)")
            } else if let note = line["note"] as? String {
                // Half a second of a peaky talker: the limiter holding true peaks at -1 dBTP keeps
                // the loudness under the target, and the line says by how much.
                let short = -16 - after
                #expect(short > 0.3 && short < 6, "\(line)")
                let said = Double(note.prefix { $0 != " " }) ?? 0
                #expect(
                    note.hasSuffix(" LU short of the target: holding the peaks under the ceiling took the rest")
                        && abs(said - short) <= 0.06, "\(line)")
            } else {
                #expect(abs(after - -16) <= 0.3, "\(line)")
            }
            #expect((line["true_peak_dbtp"] as? Double ?? 0) <= -1.0, "\(line)")
            #expect(line["audio_s"] as? Double == 0.5, "\(line)")
        }
        let echoLine = try #require(first.lines.first { ($0["input"] as? String)?.hasSuffix("j010.wav") == true })
        #expect(echoLine["ref"] as? String != nil)

        let second = try runParallel(manifest, run: 2)
        #expect(second.status == 2)
        #expect(statuses(second.lines) == ["skipped": 198, "failed": 2])

        for i in [3, 42, 99, 150, 199] { try FileManager.default.removeItem(atPath: folder.file("out/\(name(i)).wav")) }
        let third = try runParallel(manifest, run: 3)
        #expect(statuses(third.lines) == ["done": 5, "skipped": 193, "failed": 2])
        let redone = third.lines.filter { $0["status"] as? String == "done" }.compactMap { $0["output"] as? String }
        #expect(
            Set(redone.map { URL(fileURLWithPath: $0).lastPathComponent })
                == Set([3, 42, 99, 150, 199].map { "\(name($0)).wav" }))
    }

    @Test("a Slurm array task's variables pick its share; JSON lines; a bad file's exit status is the worker's")
    func slurmVariables() throws {
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        var lines: [String] = []
        for i in 0..<8 {
            try TestFiles.wav(
                folder.file("in/\(name(i)).wav"),
                [Signals.speechLike(count: 8_000, sampleRate: 16_000, rms: 0.1, seed: UInt64(i))], rate: 16_000)
            lines.append(#"{"mic": "in/\#(name(i)).wav", "out": "out-\#(name(i)).flac"}"#)
        }
        lines.append(#"{"mic": "in/missing.wav", "out": "out-missing.flac"}"#)
        let manifest = folder.file("m.jsonl")
        try lines.joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        var done: [String] = []
        for task in 1...3 {
            // --array=1-3: Slurm numbers the tasks from 1 here.
            let r = try CommandRunner.voicerack(
                ["process", "--preset", "podcast", "--manifest", manifest],
                environment: [
                    "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1",
                ])
            let reports = r.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(r.standardError.contains("shard \(task - 1)/3"), "\(r.standardError)")
            // Job 8 (the missing file) falls to the third task.
            #expect(r.status == (task == 3 ? 66 : 0), "\(r.standardError)")
            done += reports.filter { $0["status"] as? String == "done" }.compactMap { $0["output"] as? String }
        }
        #expect(done.count == 8 && Set(done).count == 8)
    }
    @Test(
        "a real one-node Slurm runs the manifest as sbatch --array=0-3: 198 done, the 2 bad files failed, nothing twice",
        .enabled(
            if: getuid() == 0
                && ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch"].allSatisfy {
                    FileManager.default.isExecutableFile(atPath: $0)
                }, "slurm-wlm and munge are needed, and root for slurmd"))
    func slurmArray() throws {
        let manifest = try makeManifest()
        let job = folder.file("job.sh")
        try """
        #!/bin/sh
        exec '\(CommandRunner.voicerack)' process --preset podcast --manifest '\(manifest)' --loudness -16 \\
          --report '\(folder.path)/slurm-report-'"$SLURM_ARRAY_TASK_ID"'.jsonl'

        """.write(toFile: job, atomically: true, encoding: .utf8)
        chmod(job, 0o755)
        // The cluster is a script's children: its daemons must not be this process's children,
        // whose exits Foundation's Process would also be waiting for.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "slurm-array.sh")
        let r = try CommandRunner.run("/bin/bash", [script.path, folder.path, job])
        let logs = ["slurmctld.log", "slurmd.log"].map {
            (try? String(contentsOfFile: folder.file("slurm/\($0)"), encoding: .utf8)) ?? ""
        }.joined(separator: "\n")
        #expect(r.status == 0, "\(r.standardError)\n\(logs)")
        // sbatch --wait ends with the highest exit status of the tasks: the data error (65) of the
        // tasks holding the two bad files.
        #expect(r.standardOutput.contains("sbatch-status 65"), "\(r.standardOutput)")
        let lines = try (0..<4).flatMap { task in
            try String(contentsOfFile: folder.file("slurm-report-\(task).jsonl"), encoding: .utf8)
                .split(separator: "\n").map {
                    try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                }
        }
        #expect(lines.count == Self.jobs, "\(logs)")
        #expect(statuses(lines) == ["done": 198, "failed": 2])
        #expect(Set(lines.compactMap { $0["output"] as? String }).count == Self.jobs)
        let taskLogs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("slurm-") && $0.hasSuffix(".out")
        }.map { try String(contentsOfFile: folder.file($0), encoding: .utf8) }.joined()
        for task in 0..<4 {
            #expect(taskLogs.contains("shard \(task)/4: 50 of 200 jobs"), "\(taskLogs)")
        }
    }
}
