import CRealtimeCheck
import Foundation
import VoiceCycle
import VoiceEngine
import VoiceFiles
import VoiceRecorder

/// The one render cycle (`CycleState.render`, as the JACK and offline drivers call it) over
/// arrays, with optional recordings on every tap, for the real-time tests.
///
/// - Realtime: `render` is what runs inside the sanitizer's region; everything else is set up
///   and torn down outside it.
final class CycleRig {
    let host: CycleHost
    let block: Int
    /// Frames of each cycle `render` runs: the engine's block, or more (a period that grew
    /// before the engine for it was built).
    let frames: Int
    let buffers: [UnsafeMutablePointer<Float>]
    private(set) var recordings: [Recording] = []
    private let folder: String

    /// Builds the host; recordings go to `folder` (a fresh one under the temporary folder when
    /// nil), which the rig creates and removes when it goes.
    init(
        configuration: EngineConfiguration, rate: Int, block: Int, referenceChannels: Int, cycleFrames: Int? = nil,
        folder: String? = nil, pluginHost: (any PluginHost)? = nil
    ) throws {
        host = try CycleHost(
            configuration: configuration, sampleRate: rate, blockSize: block, referenceChannels: referenceChannels,
            pluginHost: pluginHost)
        self.block = block
        let frames = cycleFrames ?? block
        self.frames = frames
        buffers = (0..<8).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(repeating: 0, count: frames)
            return p
        }
        self.folder = folder ?? NSTemporaryDirectory() + "voicerack-rt-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
    }

    deinit {
        _ = host.route([])
        for r in recordings {
            r.finishProducer()
            _ = r.waitUntilFinished()
        }
        try? FileManager.default.removeItem(atPath: folder)
        for b in buffers { b.deallocate() }
    }

    /// Records `taps` (float WAV in a temporary folder) from the next cycle on, each buffering
    /// `bufferSeconds` while its writer is slow, with a BWF time reference if asked.
    func record(_ taps: [Tap], bufferSeconds: Double = 10, timeReference: Bool = false) throws {
        let rate = host.sampleRate
        for tap in taps {
            var spec = RecordingSpec(
                path: "\(folder)/\(tap.rawValue).wav", format: try AudioFormat(parsing: "wav"), sampleRate: rate,
                channels: tap.channels)
            spec.bufferSeconds = bufferSeconds
            spec.timeReference = timeReference
            recordings.append(try Recording(spec: spec))
        }
        precondition(host.route(zip(taps, recordings).map { TapRoute(tap: $0, input: $1.input) }))
    }

    /// Frames each recording lost (the writer did not keep up: never expected here).
    var framesLost: Int { recordings.reduce(0) { $0 + $1.status.framesLost } }

    /// One cycle: `mic[at...]` and the far end `far[at...]` on both channels, freewheeling or not,
    /// at a transport position. - Realtime: safe (outside freewheel).
    @inline(__always)
    func render(
        mic: UnsafePointer<Float>, far: UnsafePointer<Float>, freewheeling: Bool = false,
        transport: TransportPosition = TransportPosition(), framesMissed: Int = 0
    ) {
        let io = CycleIO(
            mic: mic, farLeft: far, farRight: far, voice: buffers[0], speakerLeft: buffers[1], speakerRight: buffers[2],
            monitorLeft: buffers[3], monitorRight: buffers[4], frames: frames, framesMissed: framesMissed,
            freewheeling: freewheeling, transport: transport)
        host.cycle.pointee.render(io)
    }

    /// Renders `mic` and `far` block by block, the first `warmBlocks` outside RealtimeSanitizer's
    /// real-time region and the rest inside it; `beforeBlock` runs (outside) before each block
    /// with its start. Returns the cycles rendered in the region.
    func renderChecked(
        mic: [Float], far: [Float], warmBlocks: Int, beforeBlock: (Int) -> Void = { _ in }
    ) -> Int {
        var cycles = 0
        mic.withUnsafeBufferPointer { m in
            far.withUnsafeBufferPointer { f in
                var start = 0
                while start + frames <= mic.count {
                    beforeBlock(start)
                    let inRegion = start / frames >= warmBlocks
                    if inRegion { rtcheck_enter() }
                    render(mic: m.baseAddress! + start, far: f.baseAddress! + start)
                    if inRegion {
                        rtcheck_exit()
                        cycles += 1
                    }
                    start += frames
                }
            }
        }
        return cycles
    }

    var voice: UnsafeMutablePointer<Float> { buffers[0] }
    var speakerLeft: UnsafeMutablePointer<Float> { buffers[1] }
}
