import VoiceRT

extension EngineState {
    /// Processes one canceller frame from the input FIFOs into the output FIFO.
    ///
    /// Order matters here: the leveller runs after the preprocessor but learns and lifts only on
    /// frames the near-end detector calls voiced, so it cannot raise residual echo (this is not
    /// speexdsp's AGC, which would; see `VoiceLeveller`).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func processFrame() {
        // Never pending here (a frame-free cycle always comes between two frames when analyses
        // are deferred), but a frame must not overtake its predecessor's analysis.
        finishDeferredAnalysis()
        let f = plan.frameSize
        let b = buffers
        micFIFO.pop(into: b.frameMic, f)
        referenceLeftFIFO.pop(into: b.frameReferenceLeft, f)
        var referencePower = SampleConversion.power(b.frameReferenceLeft, f)
        // The loudspeaker's learned soft clipping (see SpeakerCurve): mono reference only.
        speakerCurve.shape(b.frameReferenceLeft, count: f)
        _ = SampleConversion.toInt16(b.frameMic, b.mic16, f)
        _ = SampleConversion.toInt16(b.frameReferenceLeft, b.reference16, f, stride: speakers)
        if speakers == 2 {
            referenceRightFIFO.pop(into: b.frameReferenceRight, f)
            referencePower = 0.5 * (referencePower + SampleConversion.power(b.frameReferenceRight, f))
            _ = SampleConversion.toInt16(b.frameReferenceRight, b.reference16 + 1, f, stride: 2)
            // From here on the left frame holds the mono mix, for the post-filter's leftover fit.
            for i in 0..<f { b.frameReferenceLeft[i] = 0.5 * (b.frameReferenceLeft[i] + b.frameReferenceRight[i]) }
        }
        let micPower = SampleConversion.power(b.mic16, f)

        var cancelledPower = micPower
        if usesSpeex {
            processor.cancel(mic: b.mic16, reference: b.reference16, output: b.output16)
            if followsDrift { followDrift(referenceActive: referencePower >= detector.farSilence) }
            cancelledPower = SampleConversion.power(b.output16, f)
            if defersFrameAnalysis {
                for i in 0..<f { b.cancelled16[i] = b.output16[i] }
            } else {
                analyseCancellerFrame(
                    output: b.output16, micPower: micPower, cancelledPower: cancelledPower,
                    referencePower: referencePower)
            }
            if estimatesResidual {
                cancellerResidual.update(mic: b.mic16, reference: b.reference16, output: b.output16)
            }
            processor.preprocess(b.output16)
            SampleConversion.toFloat(b.output16, b.frameOutput, f)
            if suppresses {
                suppressor.process(
                    b.frameOutput, residual: estimatesResidual ? UnsafePointer(cancellerResidual.power) : nil)
            }
        } else {
            // Bypass (the `raw` preset): no 16-bit round trip, the samples pass untouched.
            for i in 0..<f { b.frameOutput[i] = b.frameMic[i] }
        }
        // Voice activity: the cleaned output stands 9 dB above its own noise floor (see
        // NoiseFloorTracker); with detection off, every frame counts as voice.
        let aboveFloor = outputFloor.update(SampleConversion.power(b.frameOutput, f), margin: 8)
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
        postFilter.apply(b.frameOutput)
        if levellerEnabled {
            // Lift only in near-end single talk: a double-talk detector's misses would lift echo
            // (measured: ERLE −5 dB on the yardstick's far-end scenarios when lifting in double talk).
            // Not in the far end's pauses either (`farRecent`): lifting there raised the residue
            // in far-end-only stretches (ERLE −4 dB with fan noise) and switched the gain by up
            // to 12 dB inside double talk (DT PESQ −0.25, STOI −0.06).
            leveller.process(b.frameOutput, frames: f, voiceActive: voiced, liftAllowed: !farRecent)
        }
        // Echo-only frames: the residual echo gate takes what the suppressor left; until the
        // canceller first converges, the start-up suppression takes more (see StartupSuppression).
        let farNow = referencePower >= detector.farSilence
        let echoExplained = echoPath.explains(mic: micPower, reference: referencePower)
        let startupGain = startup.update(
            micPower: micPower, cancelledPower: cancelledPower, referencePower: referencePower)
        residualGate.setTarget(min(farActive && !voiced ? residualGateGain : 1, startupGain))
        residualGate.apply(b.frameOutput, frames: f)
        outputGain.process(b.frameOutput, frames: f)
        limitToFullScale(b.frameOutput, f)

        let outputPower = SampleConversion.power(b.frameOutput, f)
        outputMeter.measure(power: outputPower, peak: SampleConversion.peak(b.frameOutput, f), frames: f)
        // ERLE health figure: frames where the far end plays now (not its tail: the mic holds
        // little echo there) and the echo path explains the mic (EchoPathGate). The double-talk
        // detector's flags are not used here: its "suspected" frames are mostly the canceller's
        // own bad frames, and leaving them out read 50 dB where 34 dB were measured. Near-end
        // talk that is not well above the echo still counts, so in runs with much double talk
        // the figure reads low (~10 dB on the yardstick's double-talk scenarios). With the
        // post-filter's coherence statistics, EchoAloneERLE leaves double talk out instead, and
        // its figure is the one reported (see publishHealth).
        if farNow && echoExplained {
            erle.measure(
                micPower: micPower, outputPower: outputPower, frames: f, sampleRate: sampleRate,
                resets: figures.cancellerResets)
        }
        let frame = DeferredFrameAnalysis(
            micPower: micPower, cancelledPower: cancelledPower, referencePower: referencePower,
            outputPower: outputPower, farRecent: farRecent, farNow: farNow, resets: figures.cancellerResets)
        if defersFrameAnalysis {
            deferredAnalysis = frame
        } else {
            measureEchoAlone(frame)
        }
        figures.voiceActive = voiced
        figures.farActive = farActive
        outputFIFO.push(b.frameOutput, f)
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
