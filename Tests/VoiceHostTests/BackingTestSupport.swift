import Foundation
import VoiceFiles
import VoiceTestSupport

/// Files and measurements for the backing-track tests.
enum BackingFiles {
    /// Writes `channels` as float WAV at `rate` and returns the path.
    static func wav(_ path: String, _ channels: [[Float]], rate: Int) throws -> String {
        try TestFiles.wav(path, channels, rate: rate)
    }

    /// Something like a song: a chord of three harmonic-rich notes changing every 250 ms, over
    /// speech-like noise (the "voice" and percussion of the track), RMS about `rms`.
    static func musicLike(count: Int, sampleRate: Int, rms: Float, seed: UInt64) -> [Float] {
        let roots: [Double] = [220, 196, 174.6, 246.9, 261.6, 220, 293.7, 164.8]
        let noteLength = sampleRate / 4
        var out = Signals.speechLike(count: count, sampleRate: sampleRate, rms: 0.5, seed: seed)
        for i in 0..<count {
            let root = roots[(i / noteLength) % roots.count]
            let t = Double(i) / Double(sampleRate)
            var x = 0.0
            for (ratio, gain) in [(1.0, 1.0), (1.25, 0.7), (1.5, 0.6), (2.0, 0.4), (3.0, 0.2)] {
                x += gain * sin(2 * Double.pi * root * ratio * t)
            }
            out[i] += Float(0.25 * x)
        }
        return Signals.normalised(out, rms: rms)
    }
}
