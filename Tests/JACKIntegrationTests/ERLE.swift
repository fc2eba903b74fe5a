import VoiceTestSupport

/// ERLE (dB) of `voice` against `mic` over `span`: the median, over 100 ms windows (at 48 kHz),
/// of the mic-to-voice energy ratio.
///
/// The median rather than one energy ratio over the span: a single burst of residual echo (the
/// engine's preprocessor and canceller state differ slightly with how much silence came before)
/// swings the span's energy ratio by more than a dB between otherwise equal runs; the median of
/// the windows moves by about 1 dB with that (see LiveEchoTests).
///
/// - Realtime: never; test thread.
func erle(mic: [Float], voice: [Float], over span: Range<Int>) -> Double {
    let window = 4_800
    let ratios = stride(from: span.lowerBound, through: span.upperBound - window, by: window).map {
        Measure.ratioDB(mic, voice, $0..<($0 + window))
    }.sorted()
    guard !ratios.isEmpty else { return 0 }
    let middle = ratios.count / 2
    return ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
}
