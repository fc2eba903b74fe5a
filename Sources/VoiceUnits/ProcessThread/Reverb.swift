import Foundation

/// A mono Freeverb (Jezar at Dreampoint, public domain): 8 damped feedback combs in parallel,
/// then 4 allpasses in series.
///
/// The classic tunings (combs 1116…1617, allpasses 556…225 samples at 44.1 kHz; the left channel)
/// are scaled to the sample rate, so the room sounds the same at any rate. `room_size` maps to the
/// comb feedback 0.7 + 0.28·room (decay), `damping` to the combs' one-pole low-pass 0.4·damping
/// (how fast highs die). The input is scaled by Freeverb's fixed gain 0.015 and the output is
/// (1 − mix)·dry + mix·wet. Feedback, damping and the mix gains glide over 10 ms. Bypass glides to
/// dry only; the tank keeps running so re-engaging is seamless. Latency: 0 samples.
///
/// Memory: allocated in `prepare`; call `deallocate()` once when the unit is dropped, off the
/// real-time thread (see `UnitMemory`).
public struct Reverb: VoiceUnit {
    public static let parameters = [
        ParameterDescriptor(
            id: "room_size", name: "Room size", range: 0...1, defaultValue: 0.5, unit: .ratio,
            smoothing: .glide(milliseconds: 10)),
        ParameterDescriptor(
            id: "damping", name: "Damping", range: 0...1, defaultValue: 0.5, unit: .ratio,
            smoothing: .glide(milliseconds: 10)),
        .mix(defaultValue: 0.25),
        .bypass,
    ]

    /// Freeverb's comb and allpass lengths in samples at 44.1 kHz (left channel).
    static let combTunings = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617]
    static let allpassTunings = [556, 441, 341, 225]

    public var values = ParameterValues(defaults: Reverb.parameters)

    /// One delay line of the tank: where its samples live, its length and its position.
    struct Line {
        var buffer: UnsafeMutablePointer<Float>
        var length: Int
        var index = 0
        var store: Float = 0  // comb low-pass memory (unused by allpasses)
    }

    private var memory: UnsafeMutablePointer<Float>?
    private var memoryCount = 0
    private var combs: UnsafeMutablePointer<Line>?  // 8
    private var allpasses: UnsafeMutablePointer<Line>?  // 4
    // Per-sample constants as instance lets (the process path reads no statics).
    private let combCount = 8
    private let allpassCount = 4
    private let inputGain: Float = 0.015
    private let allpassFeedback: Float = 0.5

    private var feedback = SmoothedGain(initial: 0.84)
    private var damp = SmoothedGain(initial: 0.2)
    private var mix = DryWetMix()

    public init(roomSize: Float = 0.5, damping: Float = 0.5, mix: Float = 0.25, bypassed: Bool = false) {
        for (i, v) in [roomSize, damping, mix, bypassed ? 1 : 0].enumerated() { store(i, v) }
        setTargets()
        feedback.jump(to: feedback.target)
        damp.jump(to: damp.target)
        self.mix.jump()
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        deallocate()
        let scale = spec.sampleRate / 44_100
        let combLengths = Self.combTunings.map { max(1, Int((Double($0) * scale).rounded())) }
        let allpassLengths = Self.allpassTunings.map { max(1, Int((Double($0) * scale).rounded())) }
        memoryCount = (combLengths + allpassLengths).reduce(0, +)
        let memory = UnitMemory.zeroed(Float.self, memoryCount, 0)
        let combs = UnsafeMutablePointer<Line>.allocate(capacity: combCount)
        let allpasses = UnsafeMutablePointer<Line>.allocate(capacity: allpassCount)
        var offset = 0
        for (k, n) in combLengths.enumerated() {
            (combs + k).initialize(to: Line(buffer: memory + offset, length: n))
            offset += n
        }
        for (k, n) in allpassLengths.enumerated() {
            (allpasses + k).initialize(to: Line(buffer: memory + offset, length: n))
            offset += n
        }
        (self.memory, self.combs, self.allpasses) = (memory, combs, allpasses)
        let ramp = max(1, Int(spec.sampleRate * 0.01))
        feedback.rampLength = ramp
        damp.rampLength = ramp
        mix.rampLength = ramp
        reset()
    }

    /// Frees the tank. Call once when the unit is dropped, off the real-time thread; the unit
    /// passes audio through unchanged until prepared again.
    public mutating func deallocate() {
        memory?.deallocate()
        combs?.deallocate()  // Line is trivial: no deinitialize needed
        allpasses?.deallocate()
        (memory, combs, allpasses) = (nil, nil, nil)
        memoryCount = 0
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) { setTargets() }

    /// Adds reverberation to `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard let combs, let allpasses else { return }
        for i in 0..<frames {
            let x = buffer[i]
            let input = x * inputGain
            let fb = feedback.next()
            let d1 = damp.next()
            let d2 = 1 - d1
            var out: Float = 0
            for k in 0..<combCount {
                // Comb: the delayed sample, low-passed, fed back (Freeverb's comb::process).
                let line = combs + k
                let idx = line.pointee.index
                let y = line.pointee.buffer[idx]
                var store = y * d2 + line.pointee.store * d1
                if abs(store) < 1e-20 { store = 0 }  // keep the decaying tail out of subnormals
                line.pointee.store = store
                line.pointee.buffer[idx] = input + store * fb
                line.pointee.index = idx + 1 == line.pointee.length ? 0 : idx + 1
                out += y
            }
            for k in 0..<allpassCount {
                // Freeverb's allpass::process: out = −in + delayed; line = in + 0.5·delayed.
                let line = allpasses + k
                let idx = line.pointee.index
                let delayed = line.pointee.buffer[idx]
                var stored = out + delayed * allpassFeedback
                if abs(stored) < 1e-20 { stored = 0 }
                line.pointee.buffer[idx] = stored
                line.pointee.index = idx + 1 == line.pointee.length ? 0 : idx + 1
                out = delayed - out
            }
            buffer[i] = mix.next(dry: x, wet: out)
        }
    }

    public mutating func reset() {
        memory?.update(repeating: 0, count: memoryCount)
        if let combs {
            for k in 0..<combCount {
                combs[k].index = 0
                combs[k].store = 0
            }
        }
        if let allpasses { for k in 0..<allpassCount { allpasses[k].index = 0 } }
    }

    private mutating func setTargets() {
        feedback.setTarget(0.7 + 0.28 * values[0])  // Freeverb: offsetroom + scaleroom·room
        damp.setTarget(0.4 * values[1])  // Freeverb: scaledamp·damping
        mix.set(mix: values[2], bypassed: isOn(3))
    }
}
