extension LV2Unit {
    /// The benchmark's reference: the plugin's run() alone on the caller's audio, as a host with
    /// no mono mapping, atom buffers or worker would call it: connects the audio input to `input`
    /// and the output to `output`, and runs `frames` samples (at most the maximum block). For
    /// plugins with one input and one output; afterwards `process` still works (it reconnects the
    /// ports it uses).
    ///
    /// - Realtime: safe, but meant for measuring `process` against, not for use in a chain.
    @_noLocks
    public func runBare(_ input: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>, frames: Int) {
        let s = state.pointee
        s.connectAudio(input: input, output: output)
        s.runPlugin(frames)
        if !s.inPlace { s.connectAudio(input: s.input, output: s.outputs) }
    }
}
