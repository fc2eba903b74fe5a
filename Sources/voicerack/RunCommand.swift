import ArgumentParser
import VoiceHost
import VoiceJACK
import VoicePresets

/// `voicerack run`: the live JACK client.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run as a JACK client until SIGINT/SIGTERM.",
        discussion: """
            Ports: mic_in, far_in_L, far_in_R (inputs); voice_out, speaker_out_L, speaker_out_R, \
            monitor_out_L, monitor_out_R (outputs). far_in is copied to speaker_out and is the echo \
            reference. By default mic_in is connected to the first physical capture port and \
            speaker_out_L/R to the first two physical playback ports; voice_out is never connected \
            to the speakers.

            Exits with 69 when the JACK server is not running or shuts down.
            """)

    @Option(name: .long, help: "Preset name (see `voicerack presets list`) or path to a .toml file.")
    var preset: String = "echo-cancel"

    @Option(name: .long, help: "JACK client name.")
    var name: String = "voicerack"

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER or 'default').")
    var server: String?

    @Flag(name: .long, help: "Do not connect any port; leave the patching to the user.")
    var noAutoConnect = false

    func run() throws {
        do {
            let loaded = try PresetLibrary.standard().load(preset)
            var request = LiveRequest(
                options: JACKClient.Options(name: name, server: server), configuration: loaded.configuration,
                presetName: loaded.name)
            request.autoConnect = !noAutoConnect
            try LiveSession.run(request)
        } catch {
            throw failureExit(reporting: error)
        }
    }
}
