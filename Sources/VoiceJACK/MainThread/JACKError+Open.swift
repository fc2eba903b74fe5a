import CJack

extension JACKError {
    /// The message for a failed jack_client_open.
    static func cannotOpen(_ status: jack_status_t, options: JACKDriver.Options) -> JACKError {
        let server = options.serverDisplayName
        if status.rawValue & JackServerFailed.rawValue != 0 || status.rawValue & JackServerError.rawValue != 0 {
            return JACKError(
                "cannot connect to JACK server '\(server)': it is not running (start it, e.g. `jackd -n \(server) -d alsa` or with qjackctl, or pick another with --server)",
                serverIsAway: true)
        }
        if status.rawValue & JackNameNotUnique.rawValue != 0 {
            return JACKError("JACK server '\(server)' refused client name '\(options.name)': it is taken")
        }
        if status.rawValue & JackVersionError.rawValue != 0 {
            return JACKError("JACK server '\(server)' speaks another protocol version than this libjack")
        }
        return JACKError(
            "cannot open a client named '\(options.name)' on JACK server '\(server)' (jack_status_t 0x\(String(status.rawValue, radix: 16)))"
        )
    }
}
