import VoiceEcho

extension EchoSettings {
    /// The echo canceller's settings from an engine configuration. - Realtime: never; main thread.
    init(_ c: EngineConfiguration) {
        self.init()
        echoCancellation = c.echoCancellation
        preprocess = c.preprocess
        voicerackSuppressor = c.suppressor == .voicerack
        noiseSuppression = c.noiseSuppression
        noiseSuppressDB = c.noiseSuppressDB
        babbleSuppressDB = c.babbleSuppressDB
        echoSuppressDB = c.echoSuppressDB
        echoSuppressActiveDB = c.echoSuppressActiveDB
        voiceActivityDetection = c.voiceActivityDetection
        fixedDelay = c.delayMode == .fixed
        delayMilliseconds = c.delayMilliseconds
        maximumDelayMilliseconds = c.maximumDelayMilliseconds
        delayMarginMilliseconds = c.delayMarginMilliseconds
        driftCompensation = c.driftCompensation
        startupSuppression = c.startupSuppression
        speakerCurve = c.speakerCurve
        residualEchoGateDB = c.residualEchoGateDB
        residualSuppression = c.residualSuppression
        coherenceSuppression = c.coherenceSuppression
        clippingCoherenceSuppression = c.clippingCoherenceSuppression
        leftoverEchoSuppression = c.leftoverEchoSuppression
    }
}
