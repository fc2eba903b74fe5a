import VoiceHost

/// Which of a manifest's jobs one worker takes: every `count`-th job from `index`, so `count`
/// workers split a manifest with no coordinator and no two take the same job.
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    /// This worker's place, 0 ..< count.
    public let index: Int
    /// How many workers share the manifest.
    public let count: Int

    /// Every job.
    public static let all = BatchShard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether this worker takes `job`.
    public func includes(_ job: BatchJob) -> Bool { job.index % count == index }

    /// `I/N` as `--shard` takes it: 0 ≤ I < N.
    public init(parsing text: String) throws(HostError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n > 0, (0..<n).contains(i) else {
            throw HostError(.usage, "--shard \(text): expected I/N with 0 ≤ I < N, e.g. --shard 0/4")
        }
        self.init(index: i, count: n)
    }

    /// The shard a job scheduler hands this worker, or nil when none does.
    ///
    /// Slurm job arrays set `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT` and
    /// `SLURM_ARRAY_TASK_MIN` (an array `--array=1-8` counts from 1); Kubernetes Indexed Jobs set
    /// `JOB_COMPLETION_INDEX` but not the number of completions, which `count` (`--shards`) gives.
    public static func fromEnvironment(
        _ environment: [String: String], count: Int?
    ) throws(HostError)
        -> BatchShard?
    {
        let given = count.map { "--shards \($0)" }
        if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap({ Int($0) }) {
            let first = environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
            guard let n = count ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }) else {
                throw HostError(
                    .usage,
                    "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard I/N or --shards N")
            }
            return try checked(
                id - first, n,
                source: "SLURM_ARRAY_TASK_ID=\(id) (from \(first)), \(given ?? "SLURM_ARRAY_TASK_COUNT=\(n)")")
        }
        if let index = environment["JOB_COMPLETION_INDEX"].flatMap({ Int($0) }) {
            guard let count else {
                throw HostError(
                    .usage,
                    "JOB_COMPLETION_INDEX is set but the number of shards is not: give --shards N (the Job's completions)"
                )
            }
            return try checked(index, count, source: "JOB_COMPLETION_INDEX=\(index), \(given!)")
        }
        return nil
    }

    private static func checked(_ index: Int, _ count: Int, source: String) throws(HostError) -> BatchShard {
        guard count > 0, (0..<count).contains(index) else {
            throw HostError(.usage, "\(source) is not a shard: the index must be at least 0 and under the count")
        }
        return BatchShard(index: index, count: count)
    }
}
