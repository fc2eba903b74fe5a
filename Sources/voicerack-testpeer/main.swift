// voicerack-testpeer: a JACK test peer for the live-path tests (a test tool, not part of the
// product; see docs/architecture.md). It plays a mic and a far-end file into a voicerack client from
// one process callback and records its voice_out, then writes the recording and a report line.

import Foundation
import VoiceFiles

/// Reads the inputs, runs the peer, writes OUT and prints what happened. - Main thread.
func runPeer(_ options: PeerOptions) throws(PeerFailure) {
    let mic: AudioFileContents
    let ref: AudioFileContents
    let room: AudioFileContents?
    do {
        mic = try AudioFileContents.read(options.micPath)
        // --room has no far end of its own: the mic stands in (far_L/R stay unconnected).
        ref = try AudioFileContents.read(options.roomPath != nil ? options.micPath : options.refPath)
        room = try options.roomPath.map { try AudioFileContents.read($0) }
    } catch {
        throw PeerFailure(65, "\(error)")
    }
    let peer = try PeerClient(
        options: options, mic: mic.channels[0], far: Array(ref.channels.prefix(2)),
        tail: Int(options.tail * Double(mic.sampleRate)), room: room?.channels[0])
    defer { peer.close() }
    guard mic.sampleRate == peer.sampleRate, ref.sampleRate == peer.sampleRate else {
        throw PeerFailure(
            65,
            "the files' rates (\(mic.sampleRate), \(ref.sampleRate) Hz) differ from the server's \(peer.sampleRate) Hz")
    }
    try peer.activateAndConnect(target: options.target, timeout: 10)
    // Unbuffered, so a test polling the output sees it while the peer plays.
    FileHandle.standardOutput.write(
        Data("testpeer: connected to \(options.target); playing \(peer.context.pointee.length) frames\n".utf8))
    try peer.play(timeout: options.timeout)
    peer.close()
    do {
        let format = try AudioFormat(parsing: "wav:float")
        let writer = try AudioFileWriter(
            path: options.outPath, format: format, sampleRate: peer.sampleRate, channels: peer.listen.count)
        let recording = peer.recording
        try recording.withUnsafeBufferPointer { (p) throws(AudioFileError) in
            try writer.write(p.baseAddress!, frames: recording.count / peer.listen.count)
        }
        try writer.close()
    } catch {
        throw PeerFailure(73, "\(error)")
    }
    print(peer.summary + "; wrote \(options.outPath)")
}

do {
    try runPeer(try PeerOptions(Array(CommandLine.arguments.dropFirst())))
} catch  where error.status == 0 {
    print(error.message)
} catch {
    FileHandle.standardError.write(Data("voicerack-testpeer: \(error.message)\n".utf8))
    exit(error.status)
}
