import VoiceEngine
import VoiceRT

/// The backing track of an offline run: played through the real player (reader, resampler,
/// ring, level, loop) for the mic's length, and mixed into the reference the way the live client
/// mixes it into speaker_out, so the canceller hears exactly what the speakers played.
///
/// - Realtime: never.
struct OfflineBacking {
    /// The backing as played, L and R, the mic's length and rate.
    let signal: [[Float]]
    /// The inputs with the backing in the reference (when the preset cancels echo).
    let inputs: OfflineInputs
    let underruns: Int

    init(path: String, inputs loaded: OfflineInputs, configuration c: EngineConfiguration, blockSize: Int) throws(HostError) {
        let track = try BackingTrack(
            path: path, sampleRate: loaded.sampleRate, levelDB: c.backingLevelDB, loop: c.backingLoop)
        signal = try track.renderOffline(frames: loaded.mic.count, block: blockSize)
        underruns = track.underruns
        var notes = loaded.notes
        let resampled = track.fileRate == loaded.sampleRate ? "" : ", resampled from \(track.fileRate) Hz"
        notes.append("backing track \(path) (\(track.fileChannels) ch\(resampled)) at \(PresetText.decibels(c.backingLevelDB))\(c.backingLoop ? ", looping" : "")" + (c.needsReference ? "; mixed into the reference" : ""))
        guard c.needsReference else {
            inputs = OfflineInputs(mic: loaded.mic, sampleRate: loaded.sampleRate, reference: loaded.reference, notes: notes)
            return
        }
        // What the speakers played: the far end (if any) plus the backing, per channel.
        let far = loaded.reference
        let played = signal
        let reference = (0..<2).map { ch -> [Float] in
            guard !far.isEmpty else { return played[ch] }
            return zip(far[min(ch, far.count - 1)], played[ch]).map { $0 + $1 }
        }
        inputs = OfflineInputs(mic: loaded.mic, sampleRate: loaded.sampleRate, reference: reference, notes: notes)
    }

    /// The karaoke tap's linear gains from the configuration.
    static func karaokeGains(_ c: EngineConfiguration) -> (voice: Float, backing: Float) {
        (Decibels.amplitude(c.karaokeVoiceDB), Decibels.amplitude(c.karaokeBackingDB))
    }
}

/// Small text helpers for notes.
enum PresetText {
    static func decibels(_ db: Float) -> String { db == db.rounded() ? "\(Int(db)) dB" : "\(db) dB" }
}
