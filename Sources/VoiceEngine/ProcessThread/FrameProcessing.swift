import VoiceEcho
import VoiceRT

extension EngineState {
    /// Processes one canceller frame from the input FIFOs into the output FIFO.
    ///
    /// Order matters here: the leveller runs after the canceller's post-filter but learns and
    /// lifts only on frames the near-end detector calls voiced, so it cannot raise residual echo
    /// (this is not speexdsp's AGC, which would; see `VoiceLeveller`). The residual echo gate
    /// comes after the leveller, and the echo return loss is measured on the final output.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func processFrame() {
        canceller.finishPendingWork()
        let f = plan.frameSize
        let input = canceller.frameInputs
        let output = buffers.frameOutput
        micFIFO.pop(into: input.mic, f)
        referenceLeftFIFO.pop(into: input.left, f)
        if speakers == 2 { referenceRightFIFO.pop(into: input.right, f) }
        let decision = canceller.processFrame(output: output)
        if learned != nil {
            // The learned suppressor's output (or, for a hop its worker missed, the classical
            // suppressor's), `learned.latency` samples late: what follows works on that.
            learned!.process(input: canceller.learnedInput ?? output, fallback: output, output: output, count: f)
        }
        if levellerEnabled {
            // Lift only in near-end single talk: a double-talk detector's misses would lift echo.
            // Not in the far end's pauses either (`farRecent`): lifting there raised the residue
            // in far-end-only stretches and switched the gain inside double talk (figures in
            // docs/measurements.md).
            leveller.process(output, frames: f, voiceActive: decision.voiced, liftAllowed: !decision.farRecent)
        }
        canceller.gateResidualEcho(output)
        outputGain.process(output, frames: f)
        limitToFullScale(output, f)

        let outputPower = SampleConversion.power(output, f)
        outputMeter.measure(power: outputPower, peak: SampleConversion.peak(output, f), frames: f)
        canceller.finishFrame(outputPower: outputPower)
        figures.voiceActive = decision.voiced
        figures.farActive = decision.farActive
        outputFIFO.push(output, f)
    }

    /// Clamps to ±1 and counts the samples that had to be clamped (reported as output clipping).
    @inline(__always) @_noLocks
    mutating func limitToFullScale(_ p: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n where abs(p[i]) > 1 {
            p[i] = p[i] > 0 ? 1 : -1
            figures.clippedOutputSamples += 1
        }
    }
}
