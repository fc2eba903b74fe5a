import CLilv
import Synchronization

extension LV2ProcessState {
    /// Processes `frames` samples of the mono voice in place, in blocks of at most
    /// `maximumFrames`. - Realtime: safe.
    @_noLocks
    func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let n = min(maximumFrames, frames - done)
            runBlock(buffer + done, frames: n)
            done += n
        }
    }

    /// Sets control port `portIndex` to `value` clamped to its range; a bad index is ignored.
    /// - Realtime: safe.
    @_noLocks
    func setControl(_ portIndex: Int, _ value: Float) {
        guard portIndex >= 0, portIndex < portCount else { return }
        controls[portIndex] = min(max(value, lowerBounds[portIndex]), upperBounds[portIndex])
    }

    /// The latency the plugin reported on its latency port at its last run, in samples (0 without
    /// one). - Realtime: safe; any thread (reads the published copy, not the port).
    @_noLocks
    func reportedLatency() -> Int { publishedLatency.pointee.load(ordering: .relaxed) }

    /// Copies the latency port's value, as the plugin just wrote it, where other threads read it.
    /// - Realtime: safe; process thread (the thread that runs the plugin), after each run.
    @_noLocks
    private func publishLatency() {
        guard latencyPort >= 0 else { return }
        let value = controls[latencyPort]
        publishedLatency.pointee.store(value.isFinite && value > 0 ? Int(value + 0.5) : 0, ordering: .relaxed)
    }

    /// Runs one block of at most `maximumFrames` samples in place on the mono voice.
    ///
    /// Channel mapping: every audio input port (1 or 2) reads the same mono samples; with one
    /// output it is the result, with two the result is their average ((L + R) / 2, so a stereo
    /// plugin fed identical channels returns the same level; a stereo reverb's decorrelated sides
    /// are mixed to mono). A plugin with one input and one output that works in place (no
    /// lv2:inPlaceBroken) has both ports connected to the voice buffer itself: no copies.
    ///
    /// - Realtime: safe.
    @_noLocks
    func runBlock(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if inPlace {
            connectAudio(input: buffer, output: buffer)
            resetAtomBuffers()
            runPlugin(frames)
            publishLatency()
            deliverWorkerResponses()
            return
        }
        for i in 0..<frames { input[i] = buffer[i] }
        resetAtomBuffers()
        runPlugin(frames)
        publishLatency()
        deliverWorkerResponses()
        if outputCount == 1 {
            for i in 0..<frames { buffer[i] = outputs[i] }
        } else {
            let right = outputs + maximumFrames
            for i in 0..<frames { buffer[i] = 0.5 * (outputs[i] + right[i]) }
        }
    }

    /// Makes every atom input an empty sequence and every atom output an empty chunk spanning
    /// its buffer, as LV2 asks of the host before each run.
    ///
    /// - Realtime: safe (writes two header words per buffer).
    @_noLocks
    func resetAtomBuffers() {
        for i in 0..<atomCount {
            let atom = atoms[i].assumingMemoryBound(to: LV2_Atom.self)
            if atomIsInput[i] {
                atom.pointee.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
                atom.pointee.type = sequenceType
                let body = UnsafeMutableRawPointer(atom + 1).assumingMemoryBound(
                    to: LV2_Atom_Sequence_Body.self)
                body.pointee.unit = 0
                body.pointee.pad = 0
            } else {
                atom.pointee.size = UInt32(atomCapacities[i] - MemoryLayout<LV2_Atom>.size)
                atom.pointee.type = chunkType
            }
        }
    }
}
