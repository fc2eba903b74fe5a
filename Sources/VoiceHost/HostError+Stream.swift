import VoiceStream

extension HostError {
    /// A stream's error as the CLI reports it: `--stream: ...` with the stream's own sysexits code
    /// (64 bad settings, 69 unreachable, 77 refused). The message never holds the password.
    public init(streaming error: StreamError) {
        self.init(Kind(rawValue: error.exitCode) ?? .unavailable, "--stream: \(error.description)")
    }
}
