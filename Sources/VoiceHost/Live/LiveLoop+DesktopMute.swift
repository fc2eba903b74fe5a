import Foundation
import VoicePipeWire

/// `--pipewire`: voicerack's voice mute is the microphone node's own mute (a desktop mute key, a
/// call app's mute button), and talking while muted sends a desktop notification
/// (`org.freedesktop.Notifications` on the session bus) in the preset's words, once the talker
/// has talked into the mute for a second and a half on end, at most one a minute. The log takes
/// every event of the detector; a notification interrupts, so it waits for more than the
/// detector's 150 ms: a burst of echo residue once raised an event in a far-end-only stretch.
/// Without a session bus or a notification service, voicerack says so once and goes on.
///
/// - Realtime: never; main thread.
extension LiveLoop {
    /// Makes voice_out's mute and the microphone node's `node` (nil: not there) equal again.
    func keepMute(_ node: PipeWireGraph.Node?) {
        let voice = host.status().voiceMuted
        switch pipeWire.mute.step(source: node?.muted, voice: voice, now: Date()) {
        case .none:
            break
        case .muteVoice(let muted):
            host.setVoiceMuted(muted)
            let name = node?.name ?? "the microphone node"
            out.log(
                muted
                    ? "voice_out muted: '\(name)' was muted on the desktop; talking into the mic is reported"
                    : "voice_out open: '\(name)' was unmuted on the desktop")
        case .muteSource(let muted):
            if let node { pipeWire.commands?.mute(node: node.id, name: node.name, muted) }
        }
    }

    /// Sends the muted-talker notification once the talker has talked into the mute for
    /// `PipeWireLinking.noticeAfter` seconds on end, unless one went out within the last minute or
    /// the preset's `pipewire.muted_notice` is empty.
    func noticeMutedTalk() {
        guard let commands = pipeWire.commands else { return }
        let now = Date()
        guard host.status().talkingWhileMuted else {
            pipeWire.talkingSince = nil
            return
        }
        let since = pipeWire.talkingSince ?? now
        pipeWire.talkingSince = since
        let summary = request.sessionSettings.mutedNoticeSummary
        guard !summary.isEmpty, now.timeIntervalSince(since) >= PipeWireLinking.noticeAfter else { return }
        if let last = pipeWire.lastNotice, now.timeIntervalSince(last) < PipeWireLinking.noticeInterval { return }
        pipeWire.lastNotice = now
        let first = !pipeWire.noticeTried
        pipeWire.noticeTried = true
        // The first failure is logged; later ones are not (no bus now means no bus later).
        commands.notify(summary: summary, body: request.sessionSettings.mutedNoticeBody) { problem in
            first
                ? DesktopCommands.Note(
                    text:
                        "no desktop notification (is there a session bus with a notification service?): \(problem); talking while muted is only logged",
                    warning: true)
                : nil
        }
    }
}
