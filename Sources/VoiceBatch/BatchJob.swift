import VoiceHost

/// One line of a batch manifest: the files of one `process` run and its preset.
public struct BatchJob: Sendable, Equatable {
    /// The job's position in the manifest (0-based, counting jobs, not lines): what sharding uses.
    public var index: Int
    /// The manifest line it came from (1-based), for messages.
    public var line: Int
    public var mic: String
    public var ref: String?
    public var out: String
    /// The preset's name or path; nil: the command's `--preset`.
    public var preset: String?
    /// Preset keys set for this job only, in order (`compressor.threshold_dbfs` → `-18`).
    public var settings: [Setting]

    /// A preset key and the value it is set to, as `set KEY VALUE` takes them.
    public struct Setting: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(key: String, value: String) { (self.key, self.value) = (key, value) }
    }

    public init(
        index: Int, line: Int, mic: String, ref: String?, out: String, preset: String? = nil, settings: [Setting] = []
    ) {
        self.index = index
        self.line = line
        self.mic = mic
        self.ref = ref
        self.out = out
        self.preset = preset
        self.settings = settings
    }
}
