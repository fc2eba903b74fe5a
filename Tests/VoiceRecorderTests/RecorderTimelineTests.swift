import Foundation
import Testing
import VoiceFiles
import VoiceRecorder
import VoiceTestSupport

@Suite("Recorder timeline")
struct RecorderTimelineTests {
    @Test("a writer stalled past the buffer loses frames, pads them with silence and says so")
    func stalledWriterKeepsTimeline() throws {
        let folder = try TemporaryFolder()
        var spec = try monoSpec(folder.file("voice.wav"))
        spec.bufferSeconds = 0.5
        spec.blockFrames = 1024
        let recording = try Recording(spec: spec)
        let signal = indexSignal(16_000 * 3)
        recording.stallWriter(seconds: 0.5)
        feed(recording, signal[0..<32_000])  // 2 s at once: the 0.5 s buffer overflows
        Thread.sleep(forTimeInterval: 0.7)  // the writer wakes and drains
        for start in stride(from: 32_000, to: signal.count, by: 4_000) {  // now at a pace it keeps up with
            feed(recording, signal[start..<(start + 4_000)])
            Thread.sleep(forTimeInterval: 0.05)
        }
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        let s = result.status
        #expect(s.framesCaptured == signal.count)
        #expect(s.framesLost > 16_000 && s.framesLost < 32_000)
        #expect(s.framesPadded == s.framesLost)
        #expect(s.framesWritten == signal.count)
        let file = try AudioFileContents.read(spec.path).channels[0]
        #expect(file.count == signal.count)
        // Every sample is either the input's own sample at that index, or padding.
        let mismatches = zip(file, signal).filter { $0 != 0 && $0 != $1 }.count
        #expect(mismatches == 0)
        #expect(file.filter { $0 == 0 }.count == s.framesLost)
        #expect(file.suffix(16_000) == signal.suffix(16_000))
    }

    @Test("no loss with the default 10 s buffer while the disk stalls for 2 s")
    func defaultBufferRidesOutAStall() throws {
        let folder = try TemporaryFolder()
        let spec = try monoSpec(folder.file("voice.wav"), rate: 48_000)
        let recording = try Recording(spec: spec)
        recording.stallWriter(seconds: 2)
        let signal = indexSignal(48_000 * 4)  // 4 s of audio arrives during the stall
        feed(recording, signal[...])
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        #expect(result.status.framesLost == 0 && result.status.framesPadded == 0)
        #expect(try AudioFileContents.read(spec.path).channels[0] == signal)
    }

    @Test("frames lost at the very end are padded too")
    func finalLossIsPadded() throws {
        let folder = try TemporaryFolder()
        var spec = try monoSpec(folder.file("voice.wav"))
        spec.bufferSeconds = 0.25
        spec.blockFrames = 1000
        let recording = try Recording(spec: spec)
        recording.stallWriter(seconds: 0.3)
        feed(recording, indexSignal(16_000)[...])
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        #expect(result.status.framesLost > 0)
        #expect(try AudioFileContents.read(spec.path).frames == 16_000)
    }

    @Test("long recordings rotate to numbered files before the size limit, nothing lost")
    func rotation() throws {
        let folder = try TemporaryFolder()
        var spec = try monoSpec(folder.file("voice.wav"))
        spec.maximumFileBytes = 50_000  // 12 500 float frames per file
        let recording = try Recording(spec: spec)
        let signal = indexSignal(40_000)
        feed(recording, signal[...])
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        #expect(
            result.files == [
                spec.path, folder.file("voice-0002.wav"), folder.file("voice-0003.wav"), folder.file("voice-0004.wav"),
            ])
        let joined = try result.files.flatMap { try AudioFileContents.read($0).channels[0] }
        #expect(joined == signal)
    }

    @Test("a file that cannot be created is refused before recording starts")
    func refusedBeforeStart() throws {
        let spec = try monoSpec("/nonexistent-folder/x.wav")
        let error = #expect(throws: RecordingError.self) { try Recording(spec: spec) }
        #expect(error?.beforeStart == true)
        #expect(error?.description.contains("folder /nonexistent-folder does not exist") == true)
    }

    @Test("requestStop lets the producer publish its partial block on its next write")
    func stopFromMain() throws {
        let folder = try TemporaryFolder()
        let recording = try Recording(spec: try monoSpec(folder.file("v.wav")))
        feed(recording, indexSignal(1_000)[...])
        recording.requestStop()
        feed(recording, indexSignal(500)[...])  // the producer sees the request and finishes
        let result = recording.waitUntilFinished()
        #expect(result.status.framesWritten == 1_000)
        #expect(try AudioFileContents.read(folder.file("v.wav")).frames == 1_000)
    }
}
