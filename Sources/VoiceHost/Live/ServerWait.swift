import Foundation
import Glibc
import Logging
import VoiceJACK

/// `--wait-for-server` at start: with no JACK server running yet, voicerack waits for one instead
/// of exiting 69, as it already waits for a server that goes away later
/// (LiveLoop+ServerRestart.swift). A user unit started at login before the audio server, or a
/// launcher clicked before JACK was started, then joins the server when it comes, and systemd
/// has nothing to restart meanwhile.
///
/// - Realtime: never; main thread.
enum ServerWait {
    /// How often a client is tried while no server runs, in seconds (libjack's own connect
    /// attempt is quick and silenced).
    static let retryInterval = 0.5
    /// How often the waiting line is repeated in the log, in seconds, so a journal shows it is
    /// still waiting.
    static let reminderInterval = 60.0

    /// A JACK client with `options`, libjack's messages silenced; nil while no server answers.
    static func reopen(_ options: JACKDriver.Options) -> JACKDriver? {
        try? JACKMessages.silenced { () throws(JACKError) in try JACKDriver(options: options) }
    }

    /// Opens the JACK client. Without a server and with `request.waitForServer`, says so once
    /// with how to start one, then tries again every `retryInterval` until a server answers.
    /// Returns nil when SIGINT or SIGTERM came first (a clean stop, exit 0); throws
    /// `.unavailable` for every other failure, and for a missing server without the flag.
    static func openDriver(_ request: LiveRequest, signals: SignalWaiter) throws(HostError) -> JACKDriver? {
        let first: JACKError
        do throws(JACKError) {
            // When waiting, voicerack's own message says what libjack's four lines would.
            if request.waitForServer {
                return try JACKMessages.silenced { () throws(JACKError) in try JACKDriver(options: request.options) }
            }
            return try JACKDriver(options: request.options)
        } catch {
            first = error
        }
        guard request.waitForServer, first.serverIsAway else { throw HostError(.unavailable, first.message) }
        let logger = Logger(label: "voicerack")
        let server = request.options.serverDisplayName
        let since = Date()
        var reminded = since
        logger.notice(
            "no JACK server '\(server)' is running; waiting for one (--wait-for-server). Start JACK (qjackctl, or `jackd -d alsa`), or log in to a PipeWire desktop with pipewire-jack installed. Ctrl-C stops."
        )
        while true {
            if let signal = signals.wait(seconds: retryInterval) {
                if signal.number == SIGINT || signal.number == SIGTERM {
                    logger.notice("stopped while waiting for JACK server '\(server)'")
                    return nil
                }
                continue
            }
            if let driver = reopen(request.options) {
                let seconds = String(format: "%.0f", Date().timeIntervalSince(since))
                logger.notice("JACK server '\(server)' is up after \(seconds) s")
                return driver
            }
            if Date().timeIntervalSince(reminded) >= reminderInterval {
                reminded = Date()
                let minutes = String(format: "%.0f", Date().timeIntervalSince(since) / 60)
                logger.notice("still waiting for JACK server '\(server)' (\(minutes) min)")
            }
        }
    }
}
