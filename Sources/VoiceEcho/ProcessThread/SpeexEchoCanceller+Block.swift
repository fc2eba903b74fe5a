import VoiceRT

extension SpeexEchoCanceller {
    /// Feeds the delay estimator and delays the reference block to match the echo (see
    /// `EchoCanceller.alignReference`). - Realtime: safe.
    @_noLocks
    public mutating func alignReference(
        mic: UnsafePointer<Float>, referenceMono: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, frames n: Int, framesDue: Int
    ) {
        analysesBefore = estimator.analyses
        trackDelay(mic: mic, referenceMono: referenceMono, n, cancellerFramesDue: framesDue)
        referenceDelay.process(left, right, left, right, n)
    }

    /// Feeds the delay estimator and moves the reference delay when the estimate moved further
    /// than the tolerance; the canceller is reset then, since its filter no longer fits.
    ///
    /// Where a canceller frame spans two or more blocks (blocks of 64 or 128 samples against
    /// 384-sample frames), the estimator's analysis steps (an FFT each, the cycle's largest work
    /// after a frame) wait for a cycle that runs no frame, so the two never add up in one cycle.
    /// `cancellerFramesDue` is how many frames this cycle will run. At larger blocks every cycle
    /// or every other one runs a frame, and the steps run as they come.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func trackDelay(
        mic: UnsafePointer<Float>, referenceMono: UnsafePointer<Float>, _ n: Int, cancellerFramesDue: Int
    ) {
        guard tracksDelay else { return }
        applyDelaySeed()
        let accepted = estimator.process(
            mic: mic, reference: referenceMono, frames: n,
            advance: !leavesFrameFreeCycles || cancellerFramesDue == 0)
        var driftUpdated = false
        if estimator.peaks != driftPeaks {
            driftPeaks = estimator.peaks
            drift.add(lag: estimator.preciseLag, time: estimator.preciseLagTime)
            driftUpdated = true
        }
        if estimator.phaseDrift.taken != phaseDriftSamples {
            phaseDriftSamples = estimator.phaseDrift.taken
            driftUpdated = true
        }
        if driftUpdated { followDriftFigure() }
        guard accepted else { return }
        health.estimatedDelay = estimator.estimate
        health.delayConfidence = estimator.confidence
        let target = max(0, estimator.estimate - delayMargin)
        guard abs(target - referenceDelay.delay) > delayTolerance else { return }
        referenceDelay.setDelay(target)
        reset()
        health.appliedDelay = referenceDelay.delay
    }

    /// Resets speexdsp's filter and what was learned from it (the filter's shifts, the speaker
    /// curve's taps), restarts the start-up suppression's probe, and counts the reset.
    /// - Realtime: safe.
    @_noLocks
    public mutating func reset() {
        processor.resetCanceller()
        pathShift.forget()
        follower.forget()
        catchUp.reset()
        speakerCurve.forgetTaps()
        startup.restart()
        health.cancellerResets += 1
    }

    /// Takes a pending delay seed while the estimator has none of its own: the seed (capture +
    /// playback latency) is where the echo should be, the estimate is where it is.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func applyDelaySeed() {
        let seed = delaySeed.exchange(-1, ordering: .relaxed)
        guard seed >= 0, estimator.estimate < 0 else { return }
        let target = max(0, seed - delayMargin)
        guard target != referenceDelay.delay else { return }
        referenceDelay.setDelay(target)
        health.appliedDelay = referenceDelay.delay
    }

    /// Lets the speaker curve look at the canceller's filter (about 0.8 canceller frames of work)
    /// in a light cycle: never one with the delay estimator's analysis (a cycle's largest own
    /// work), and, where cycles differ, one with fewer canceller frames than a cycle can hold (at
    /// blocks under the frame: one without a frame). So the look does not raise the worst cycle.
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func endCycle(framesThisCycle: Int) {
        guard speakerCurve.wantsLook, estimator.analyses == analysesBefore else { return }
        let most = (blockSize + frameSize - 1) / frameSize
        let uniform = blockSize % frameSize == 0
        guard uniform || framesThisCycle < most else { return }
        speakerCurve.look(processor)
    }

    /// Copies the canceller's figures into the engine's. - Realtime: safe.
    @_noLocks
    public func report(into figures: inout HealthFigures) {
        figures.estimatedDelay = health.estimatedDelay
        figures.delayConfidence = health.delayConfidence
        figures.appliedDelay = health.appliedDelay
        figures.cancellerResets = health.cancellerResets
        figures.clockDriftPPM = health.clockDriftPPM
        figures.driftCompensation = health.driftCompensation
        figures.speakerDrive = speakerCurve.isApplied ? RealtimeMath.squareRoot(speakerCurve.curvature) : 0
        // With the coherence statistics, the figure that leaves double talk out, and nothing
        // until it has windows of the far end alone (the level-gated one would read a talker as
        // echo left meanwhile); without them, the level-gated one (see EchoAloneERLE).
        figures.echoReturnLossEnhancement = postFilter.echoShare >= 0 ? echoAlone.ratio : erle.ratio()
    }
}
