import VoiceEcho
import VoiceSpeex

extension EngineCanceller {
    /// How the engine sets up speexdsp: as built, or failing (tests of the fallback).
    enum SpeexSetup {
        case asBuilt
        case failing
    }

    /// The canceller for `settings`: the null twin where speexdsp would only copy the mic
    /// through (no canceller, no preprocessor, and neither the leveller nor ducking reads its
    /// near-end decision), or where speexdsp's states cannot be made; speexdsp's otherwise.
    /// `note` says why the null twin runs in place of a canceller the preset asked for.
    ///
    /// - Realtime: never (allocates); main thread.
    init(
        settings c: EchoSettings, speex: SpeexSettings, spec: EchoSpec, decisionRead: Bool,
        setup: SpeexSetup = .asBuilt, note: inout String?
    ) {
        if c.echoCancellation || c.preprocess || decisionRead {
            let canceller = SpeexEchoCanceller(settings: c, speex: speex, spec: spec)
            if canceller.isReady && setup == .asBuilt {
                let p = UnsafeMutablePointer<SpeexEchoCanceller>.allocate(capacity: 1)
                p.initialize(to: canceller)
                kind = .speex(p)
                (frameSize, frameInputs) = (p.pointee.frameSize, p.pointee.frameInputs)
                learnedInput = p.pointee.feedsLearnedStage ? p.pointee.learnedInput : nil
                return
            }
            note =
                "echo cancellation and the preprocessor could not be set up (speexdsp made no state for "
                + "\(spec.frameSize)-sample frames at \(spec.sampleRate) Hz): the voice passes through without them"
        }
        let p = UnsafeMutablePointer<NullEchoCanceller>.allocate(capacity: 1)
        p.initialize(to: NullEchoCanceller(frameSize: spec.frameSize))
        kind = .null(p)
        (frameSize, frameInputs) = (p.pointee.frameSize, p.pointee.frameInputs)
        learnedInput = nil
    }
}

extension EngineCanceller {
    /// The running canceller's latency (read when the engine is built). - Realtime: never.
    public var latency: Int {
        switch kind {
        case .speex(let p): p.pointee.latency
        case .null(let p): p.pointee.latency
        }
    }

    /// Posts a bulk-delay seed to speexdsp's canceller (the null twin has no delay to seed).
    /// - Realtime: any thread may call.
    func seedDelay(samples: Int) {
        if case .speex(let p) = kind { p.pointee.seedDelay(samples: samples) }
    }
}

extension EngineCanceller {
    /// speexdsp's canceller, in place, when it runs (tests look inside it). - Realtime: never.
    var speex: UnsafeMutablePointer<SpeexEchoCanceller>? {
        if case .speex(let p) = kind { return p }
        return nil
    }
}
