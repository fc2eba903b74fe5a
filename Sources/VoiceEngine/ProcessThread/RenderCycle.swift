import VoiceEcho
import VoiceRT

/// The render cycle: one host block of mic and far end in, one block of processed voice out.
///
/// ```
/// mic ─► condition (NaN guard, gain, high-pass, meter) ─► mic FIFO ─┐
/// far L/R ─► mix (mono or stereo) ─┬─► canceller: delay estimator  ├─► frames ─► output FIFO ─► effects ─► voice
///                                  └─► canceller: delay line ─► ref FIFOs ──┘
/// ```
extension EngineState {
    /// Processes one block of `frames` samples (at most `plan.blockSize`).
    ///
    /// `farLeft`/`farRight` may be nil (silence / mono far end). `voice` receives the processed
    /// voice, `latency` samples late (see `VoiceEngine.latency`).
    ///
    /// - Realtime: safe; called on the JACK process thread or by the offline driver.
    @_noLocks
    public mutating func render(
        mic: UnsafePointer<Float>, farLeft: UnsafePointer<Float>?, farRight: UnsafePointer<Float>?,
        voice: UnsafeMutablePointer<Float>, frames: Int
    ) {
        let n = min(frames, plan.blockSize)
        // The last frame's post-filter analysis, if it waited: first, so that it sees the state
        // it would have seen in the frame's own cycle (no control message, no delay move yet).
        canceller.finishPendingWork()
        applyControlMessages()
        conditionInput(mic, n)
        mixReference(farLeft, farRight, n)
        let l = buffers.referenceLeft, r = buffers.referenceRight
        canceller.alignReference(
            mic: buffers.mic, referenceMono: buffers.referenceMono, left: l, right: r, frames: n,
            framesDue: (micFIFO.count + n) / plan.frameSize)
        enqueue(n)
        var cancellerFrames = 0
        while micFIFO.count >= plan.frameSize {
            processFrame()
            cancellerFrames += 1
        }
        canceller.endCycle(framesThisCycle: cancellerFrames)
        dequeue(into: voice, frames)
        effects.process(voice, frames: frames)
        publishHealth()
    }

    /// The near-end voice decision of the last processed frame (double-talk aware: taken on the
    /// echo canceller's output, so echo alone is not voice). - Realtime: safe.
    public var voiceActive: Bool {
        @inline(__always) @_noLocks get { figures.voiceActive }
    }

    /// Largest magnitude a mic sample keeps (+18 dBFS); anything beyond is held there.
    @inline(__always) static var inputLimit: Float { 8 }

    /// Copies the mic block, replaces non-finite samples, counts clipping, applies input gain and
    /// the high-pass, and meters the result.
    @inline(__always) @_noLocks
    mutating func conditionInput(_ mic: UnsafePointer<Float>, _ n: Int) {
        let block = buffers.mic
        for i in 0..<n {
            let x = mic[i]
            if !x.isFinite {
                block[i] = 0
                figures.nonFiniteSamples += 1
            } else {
                if abs(x) >= 1 { figures.clippedInputSamples += 1 }
                // Finite but absurd values (a float file of 3e38) would overflow the gain and
                // filters to infinity and NaN: hold them to 8 (+18 dBFS), far past any real mic.
                block[i] = min(max(x, -Self.inputLimit), Self.inputLimit)
            }
        }
        inputGain.process(block, frames: n)
        highPass.process(block, frames: n)
        micMeter.measure(block, n)
        figures.framesProcessed += n
    }

    /// Builds the canceller's reference from the far-end inputs: both channels, or their mean.
    @inline(__always) @_noLocks
    mutating func mixReference(_ left: UnsafePointer<Float>?, _ right: UnsafePointer<Float>?, _ n: Int) {
        let l = buffers.referenceLeft, r = buffers.referenceRight, mono = buffers.referenceMono
        // Branches hoisted out of the per-sample loops: the layout is fixed for the whole block.
        if let left, let right {
            let stereo = speakers == 2
            for i in 0..<n {
                let a = sanitized(left[i]), b = sanitized(right[i])
                mono[i] = 0.5 * (a + b)
                l[i] = stereo ? a : mono[i]
                r[i] = b
            }
        } else if let left {
            for i in 0..<n {
                let a = sanitized(left[i])
                mono[i] = a
                l[i] = a
                r[i] = a
            }
        } else {
            for i in 0..<n {
                mono[i] = 0
                l[i] = 0
                r[i] = 0
            }
        }
        farMeter.measure(mono, n)
    }

    /// Queues the block (its reference delayed by the canceller) for framing.
    @inline(__always) @_noLocks
    mutating func enqueue(_ n: Int) {
        let l = buffers.referenceLeft, r = buffers.referenceRight
        micFIFO.push(buffers.mic, n)
        referenceLeftFIFO.push(l, n)
        if speakers == 2 { referenceRightFIFO.push(r, n) }
    }

    /// Pops one block of processed voice; pads with silence (and counts) if the host's block was
    /// not the planned one and the FIFO ran short.
    @inline(__always) @_noLocks
    mutating func dequeue(into voice: UnsafeMutablePointer<Float>, _ frames: Int) {
        let available = min(frames, outputFIFO.count)
        outputFIFO.pop(into: voice, available)
        if available < frames {
            for i in available..<frames { voice[i] = 0 }
            underruns += frames - available
        }
    }

    /// Copies the meters into the figures and publishes them for the main thread.
    @inline(__always) @_noLocks
    mutating func publishHealth() {
        (figures.micLevel, figures.micPeak) = micMeter.reading
        (figures.farLevel, figures.farPeak) = farMeter.reading
        (figures.monitorLevel, figures.monitorPeak) = monitorMeter.reading
        (figures.outputLevel, figures.outputPeak) = outputMeter.reading
        canceller.report(into: &figures)
        figures.levellerGain = leveller.currentGain()
        if let stage = learned {
            figures.learnedHops = stage.learnedHops
            figures.learnedMissedHops = stage.missedHops
        }
        health.pointee.publish(figures)
    }
}

/// A far-end sample made safe: non-finite ones silenced, absurd ones held to +18 dBFS.
@inline(__always)
private func sanitized(_ x: Float) -> Float { x.isFinite ? min(max(x, -8), 8) : 0 }
