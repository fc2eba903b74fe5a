extension VoiceEngine {
    /// Renders one block (see `EngineState.render`). - Realtime: safe.
    @_noLocks
    public func render(
        mic: UnsafePointer<Float>, farLeft: UnsafePointer<Float>?, farRight: UnsafePointer<Float>?,
        voice: UnsafeMutablePointer<Float>, frames: Int
    ) {
        state.pointee.render(mic: mic, farLeft: farLeft, farRight: farRight, voice: voice, frames: frames)
    }
}
