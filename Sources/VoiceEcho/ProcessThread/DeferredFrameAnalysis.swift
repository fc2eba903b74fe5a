import VoiceRT

/// What a canceller frame's post-filter analysis needs from the frame once the frame is done.
///
/// Where a frame spans two or more host blocks (64- or 128-sample blocks against 384-sample
/// frames at 48 kHz), the cycle that completes a frame carries the whole frame's work and the
/// cycles between frames carry almost none; the frame cycle is the worst cycle. The post-filter's
/// analysis of frame n (its FFTs, band powers, coherence and leftover fit, with the speaker
/// curve's learning from the same signals) only decides the gains for the output frame after it:
/// the preprocessor delays its output by one frame, so frame n's gains are applied to frame
/// n + 1's output (see `ResidualEchoSuppressor`). So the analysis can wait for the next cycle,
/// which never runs a frame (`FramePlan.leavesFrameFreeCycles`). It runs first thing in that cycle, before control messages and
/// the delay estimator, so every state it reads and writes is what it would have been in the
/// frame's own cycle: the output is sample-identical to the analysis run in the frame's cycle.
/// Only the health figures read a cycle later.
///
/// The frame's mic and reference stay in the canceller's frame buffers until the next frame;
/// the canceller's output, which the preprocessor overwrites, is copied (`cancelled16`).
///
/// - Realtime: plain values, copied on the process thread.
struct DeferredFrameAnalysis {
    /// True from the frame until its analysis has run.
    var isPending = false
    /// The frame's mean squares: mic, canceller output, reference, and the frame's final output.
    var micPower: Float = 0
    var cancelledPower: Float = 0
    var referencePower: Float = 0
    var outputPower: Float = 0
    /// The near-end detector's "far end played recently" for the frame (echo may ring on).
    var farRecent = false
    /// The far end played in the frame itself.
    var farNow = false
    /// Canceller resets so far, as the frame saw them.
    var resets = 0

    /// Nothing pending.
    init() {}

    /// A frame's figures, pending. - Realtime: safe.
    @inline(__always) @_noLocks
    init(
        micPower: Float, cancelledPower: Float, referencePower: Float, outputPower: Float, farRecent: Bool,
        farNow: Bool, resets: Int
    ) {
        isPending = true
        self.micPower = micPower
        self.cancelledPower = cancelledPower
        self.referencePower = referencePower
        self.outputPower = outputPower
        self.farRecent = farRecent
        self.farNow = farNow
        self.resets = resets
    }
}

extension SpeexEchoCanceller {
    /// The post-filter's analysis of the canceller frame in the frame buffers (`output`: the
    /// canceller's output, before the preprocessor), and the speaker curve's learning from it.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func analyseCancellerFrame(
        output: UnsafePointer<Int16>, micPower: Float, cancelledPower: Float, referencePower: Float
    ) {
        let b = buffers
        postFilter.analyse(mic: b.mic16, output: output, reference: b.frameReferenceLeft)
        speakerCurve.learn(
            mic: b.mic16, output: output, micPower: micPower, cancelledPower: cancelledPower,
            farActive: referencePower >= detector.farSilence)
        followSpeakerCurve()
    }

    /// Runs the last frame's deferred analysis, if one waits: the analysis, the leftover fit's
    /// onset check, the next frame's gains and the far-end-alone health figure, in the order the
    /// frame's own cycle runs them when nothing is deferred.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func finishDeferredAnalysis() {
        guard deferredAnalysis.isPending else { return }
        let frame = deferredAnalysis
        deferredAnalysis.isPending = false
        analyseCancellerFrame(
            output: buffers.cancelled16, micPower: frame.micPower, cancelledPower: frame.cancelledPower,
            referencePower: frame.referencePower)
        postFilter.observe(micPower: frame.micPower, referencePower: frame.referencePower)
        postFilter.computeGains(echoPossible: frame.farRecent)
        measureEchoAlone(frame)
    }

    /// Echo removal where the far end talks alone (see EchoAloneERLE), for one frame.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func measureEchoAlone(_ frame: DeferredFrameAnalysis) {
        echoAlone.measure(
            explained: postFilter.echoShare, farActive: frame.farNow, micPower: frame.micPower,
            outputPower: frame.outputPower, frames: frameSize, sampleRate: sampleRate, resets: frame.resets)
    }
}
