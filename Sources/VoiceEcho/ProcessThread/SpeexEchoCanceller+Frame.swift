import VoiceRT

extension SpeexEchoCanceller {
    /// Where the host puts one frame of mic and reference. - Realtime: safe.
    public var frameInputs: EchoFrameInputs {
        @inline(__always) @_noLocks get {
            EchoFrameInputs(
                mic: buffers.frameMic, left: buffers.frameReferenceLeft, right: buffers.frameReferenceRight)
        }
    }

    /// Cancels one frame: the speaker curve, speexdsp's canceller, drift following, the
    /// post-filter's analysis (now or in the next cycle), the preprocessor, voice activity, the
    /// near-end decision and the post-filter's gains, into `output`.
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func processFrame(output: UnsafeMutablePointer<Float>) -> EchoDecision {
        // Never pending here (a frame-free cycle always comes between two frames when analyses
        // are deferred), but a frame must not overtake its predecessor's analysis.
        finishDeferredAnalysis()
        let f = frameSize
        let b = buffers
        var referencePower = SampleConversion.power(b.frameReferenceLeft, f)
        // The loudspeaker's learned soft clipping (see SpeakerCurve): mono reference only.
        speakerCurve.shape(b.frameReferenceLeft, count: f)
        _ = SampleConversion.toInt16(b.frameMic, b.mic16, f)
        _ = SampleConversion.toInt16(b.frameReferenceLeft, b.reference16, f, stride: speakers)
        if speakers == 2 {
            referencePower = 0.5 * (referencePower + SampleConversion.power(b.frameReferenceRight, f))
            _ = SampleConversion.toInt16(b.frameReferenceRight, b.reference16 + 1, f, stride: 2)
            // From here on the left frame holds the mono mix, for the post-filter's leftover fit.
            for i in 0..<f { b.frameReferenceLeft[i] = 0.5 * (b.frameReferenceLeft[i] + b.frameReferenceRight[i]) }
        }
        let micPower = SampleConversion.power(b.mic16, f)

        var cancelledPower = micPower
        var estimate = (cross: Float(0), power: Float(0))
        if usesSpeex {
            processor.cancel(mic: b.mic16, reference: b.reference16, output: b.output16)
            if followsDrift { followDrift(referenceActive: referencePower >= detector.farSilence) }
            cancelledPower = SampleConversion.power(b.output16, f)
            estimate = SampleConversion.estimateFit(mic: b.mic16, error: b.output16, f)
            // The far end alone: the echo estimate explains nearly all the mic (the coherence
            // statistics over the last 0.4 s, `ResidualEchoSuppressor.recentEchoShare`) in the last frame analysed;
            // without them, the near-end detector's last word. Read before this frame's analysis,
            // so that blocks that defer it to the next cycle decide alike, sample for sample.
            let share = postFilter.recentEchoShare
            let nearEnd = share >= 0 ? share < cancellerResidual.farAloneShare : frame.voiced
            if defersFrameAnalysis {
                for i in 0..<f { b.cancelled16[i] = b.output16[i] }
            } else {
                analyseCancellerFrame(
                    output: b.output16, micPower: micPower, cancelledPower: cancelledPower,
                    referencePower: referencePower)
            }
            if estimatesResidual {
                cancellerResidual.update(
                    mic: b.mic16, reference: b.reference16, output: b.output16, nearEndTalks: nearEnd)
            }
            processor.preprocess(b.output16)
            SampleConversion.toFloat(b.output16, output, f)
            let residual = estimatesResidual ? UnsafePointer(cancellerResidual.power) : nil
            if feedsLearnedStage {
                for i in 0..<f { learnedInput[i] = output[i] }
                echoOnlySuppressor.process(learnedInput, residual: residual)
            }
            // Far end alone for the suppressor's presence: the coherence share says so, the
            // detector hears no voice, and the residual claims twice what the output holds this
            // frame (its estimate runs over the echo left; a near end stands above it at once).
            // Once rather than twice let the near end of a synthetic double talk fall under the
            // SI-SDR `VoicerackSuppressorTests` allows (docs/measurements.md, branch fe36c).
            suppressor.farEndAlone =
                estimatesResidual && !nearEnd && !frame.voiced && cancellerResidual.outputOverResidual < 0.5
            if suppresses { suppressor.process(output, residual: residual) }
        } else {
            // Bypass (a `raw`-like preset whose leveller or ducking needs the voice decision; `raw`
            // itself runs the null twin): no 16-bit round trip, the samples pass untouched.
            for i in 0..<f { output[i] = b.frameMic[i] }
        }
        // Voice activity: the cleaned output stands 9 dB above its own noise floor (see
        // NoiseFloorTracker); with detection off, every frame counts as voice.
        let aboveFloor = outputFloor.update(SampleConversion.power(output, f), margin: 8)
        let vad = detectsVoice ? aboveFloor : true

        let (voiced, farActive, farRecent) = detector.decide(
            vad: vad, micPower: micPower, cancelledPower: cancelledPower, referencePower: referencePower)
        // Residual echo beyond the linear filter (see ResidualEchoSuppressor); no double-talk
        // decision gates it: the near end masks the modelled residual band by band.
        if defersFrameAnalysis {
            postFilter.advanceGains()
        } else {
            postFilter.observe(micPower: micPower, referencePower: referencePower)
            postFilter.update(echoPossible: farRecent)
        }
        postFilter.apply(output)
        if feedsLearnedStage { postFilter.applyLastGain(to: learnedInput) }
        frame = FrameInProgress(
            micPower: micPower, cancelledPower: cancelledPower, referencePower: referencePower, voiced: voiced,
            farActive: farActive, farRecent: farRecent)
        frame.estimateCross = estimate.cross
        frame.estimatePower = estimate.power
        return EchoDecision(voiced: voiced, farActive: farActive, farRecent: farRecent)
    }

    /// Echo-only frames: the residual echo gate takes what the suppressor left; until the
    /// canceller first converges, or after the echo path changed under it, the start-up
    /// suppression takes more (see StartupSuppression).
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func gateResidualEcho(_ output: UnsafeMutablePointer<Float>) {
        frame.farNow = frame.referencePower >= detector.farSilence
        frame.echoExplained = echoPath.explains(mic: frame.micPower, reference: frame.referencePower)
        let startupGain = startup.update(
            micPower: frame.micPower, cancelledPower: frame.cancelledPower, referencePower: frame.referencePower,
            estimateCross: frame.estimateCross, estimatePower: frame.estimatePower)
        residualGate.setTarget(min(frame.farActive && !frame.voiced ? residualGateGain : 1, startupGain))
        residualGate.apply(output, frames: frameSize)
    }

    /// Measures the frame's echo return loss on its final output (mean square `outputPower`).
    ///
    /// ERLE health figure: frames where the far end plays now (not its tail: the mic holds
    /// little echo there) and the echo path explains the mic (EchoPathGate). The double-talk
    /// detector's flags are not used here: its "suspected" frames are mostly the canceller's own
    /// bad frames, and leaving them out read far more than the yardstick measured. Near-end talk
    /// that is not well above the echo still counts, so in runs with much double talk the figure
    /// reads low. With the post-filter's coherence statistics, EchoAloneERLE leaves double talk
    /// out instead, and its figure is the one reported (see `report(into:)`; measured figures in
    /// docs/measurements.md).
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func finishFrame(outputPower: Float) {
        if frame.farNow && frame.echoExplained {
            erle.measure(
                micPower: frame.micPower, outputPower: outputPower, frames: frameSize, sampleRate: sampleRate,
                resets: health.cancellerResets)
        }
        let analysis = DeferredFrameAnalysis(
            micPower: frame.micPower, cancelledPower: frame.cancelledPower, referencePower: frame.referencePower,
            outputPower: outputPower, farRecent: frame.farRecent, farNow: frame.farNow,
            resets: health.cancellerResets)
        if defersFrameAnalysis {
            deferredAnalysis = analysis
        } else {
            measureEchoAlone(analysis)
        }
    }

    /// Runs the last frame's deferred analysis, if one waits. - Realtime: safe.
    @_noLocks
    public mutating func finishPendingWork() { finishDeferredAnalysis() }
}
