import ArgumentParser

/// `process`'s batch options: a manifest of jobs and which share of it this worker runs.
struct BatchArguments: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run the jobs listed in FILE (TSV: mic, ref, out[, preset[, key=value;...]]; or JSON lines with mic, ref, out, preset, set) instead of one --mic/--out.",
            valueName: "file"),
        completion: .file())
    var manifest: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run every N-th job from job I (0-based), so N workers split the manifest (default: from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX).",
            valueName: "I/N"))
    var shard: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many workers share the manifest, when the index comes from the environment (a Kubernetes Indexed Job's completions).",
            valueName: "N"))
    var shards: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Append each job's JSON report line to FILE instead of standard output.", valueName: "file"),
        completion: .file())
    var report: String?
}
