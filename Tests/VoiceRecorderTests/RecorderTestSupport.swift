import Foundation
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

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

/// A tmpfs of `size` (e.g. `64k`) mounted at `small-disk` in `folder`, for full-disk tests:
/// its path, or nil (after printing why) where mounting is not permitted (it needs root).
/// `unmountSmallDisk` it when done.
func mountSmallDisk(size: String, in folder: TemporaryFolder) throws -> String? {
    let mountPoint = folder.file("small-disk")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let mount = try CommandRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint])
    guard mount.status == 0 else {
        print("skipped: cannot mount a small tmpfs here (\(mount.standardError)); needs root")
        return nil
    }
    return mountPoint
}

/// Unmounts what `mountSmallDisk` mounted; lazily, so a file a failed test left open does not
/// keep it mounted.
func unmountSmallDisk(_ mountPoint: String) {
    _ = try? CommandRunner.run("/bin/umount", ["-l", mountPoint])
}
