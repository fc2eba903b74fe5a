import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var drawn = false

    /// A bar for `label`; `worthShowing` is false for short jobs.
    init(label: String, worthShowing: Bool) {
        self.label = label
        enabled = worthShowing && isatty(STDERR_FILENO) == 1
    }

    /// Redraws the bar at `fraction` (0...1).
    func update(_ fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))%".utf8))
        drawn = true
    }

    /// Clears the line.
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
