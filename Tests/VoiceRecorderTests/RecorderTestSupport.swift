import Foundation
import VoiceFiles
import VoiceRecorder

/// A signal whose every sample is non-zero and tells its own index, so a file can be checked
/// for timeline truth: sample n of the file is either sample n of the input or padding (0).
func indexSignal(_ count: Int) -> [Float] {
    (0..<count).map { Float($0 % 997 + 1) / 2048 }
}

/// Feeds `signal` (mono) to the recording in `block`-frame writes, from the calling thread.
func feed(_ recording: Recording, _ signal: ArraySlice<Float>, block: Int = 256) {
    let array = Array(signal)
    array.withUnsafeBufferPointer { buffer in
        var channel: UnsafePointer<Float> = buffer.baseAddress!
        var start = 0
        while start < array.count {
            let n = min(block, array.count - start)
            channel = buffer.baseAddress! + start
            withUnsafePointer(to: &channel) { recording.input.write($0, frames: n) }
            start += n
        }
    }
}

/// A mono float WAV recording spec at `rate` in `folder`.
func monoSpec(_ path: String, rate: Int = 16_000, format: String = "wav:float") throws -> RecordingSpec {
    RecordingSpec(path: path, format: try AudioFormat(parsing: format), sampleRate: rate, channels: 1)
}
