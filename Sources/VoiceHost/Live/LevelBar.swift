import Foundation
import VoiceRT

/// A level meter for the terminal: a short bar with a peak-hold mark and the level in dBFS,
/// e.g. `mic [###  | ] -18`.
///
/// The peak mark stays at the loudest level for `holdSeconds`, then falls at `fallDBPerSecond`,
/// so a short shout stays readable between refreshes. The time is given by the caller, so
/// tests drive it.
///
/// - Realtime: never; main thread.
struct LevelBar {
    /// What the bar shows: `mic`, `far`, `voice`.
    let label: String
    /// Cells of the bar, from `floorDB` (empty) to 0 dBFS (full).
    static let cells = 6
    static let floorDB = -60.0
    static let holdSeconds = 2.0
    static let fallDBPerSecond = 15.0
    private var peakDB = -Double.infinity
    private var peakTime = 0.0

    init(label: String) { self.label = label }

    /// Takes the level `linear` (amplitude, 1 = full scale) at `time` (seconds, any origin) and
    /// returns the meter's text: `label [bar] dB`, `dB` three characters wide (`-99` at most).
    mutating func update(_ linear: Float, at time: Double) -> String {
        update(dBFS: linear > 1e-6 ? Double(Decibels.fromAmplitude(linear)) : -Double.infinity, at: time)
    }

    /// The same for a level in dBFS (-infinity for silence), as `LiveSnapshot` holds it.
    mutating func update(dBFS level: Double, at time: Double) -> String {
        let fallen = peakDB - max(0, time - peakTime - Self.holdSeconds) * Self.fallDBPerSecond
        if level >= fallen {
            peakDB = level
            peakTime = time
        } else if time - peakTime > Self.holdSeconds {
            // Falling: restart the fall from where it is, so it keeps falling smoothly.
            peakDB = fallen
            peakTime = time - Self.holdSeconds
        }
        return "\(label) [\(Self.bar(level: level, peak: peakDB))] " + Self.decibels(level)
    }

    /// `cells` characters: `#` up to the level, `|` at the held peak, spaces elsewhere.
    static func bar(level: Double, peak: Double) -> String {
        let filled = cellsFor(level)
        let peakCell = cellsFor(peak) - 1
        return String(
            (0..<cells).map { cell -> Character in
                cell < filled ? "#" : cell == peakCell ? "|" : " "
            })
    }

    /// How many cells `dB` fills (0 below the floor, `cells` at 0 dBFS), rounded.
    private static func cellsFor(_ dB: Double) -> Int {
        guard dB.isFinite else { return 0 }
        let fraction = (dB - floorDB) / -floorDB
        return Int((fraction * Double(cells)).rounded()).clamped(to: 0...cells)
    }

    /// The level as three characters: `-18`, `  0`, `-99` for anything quieter (silence too).
    static func decibels(_ dB: Double) -> String {
        let shown = dB.isFinite ? max(-99, min(0, dB.rounded())) : -99
        return String(format: "%3.0f", shown == 0 ? 0 : shown)
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
