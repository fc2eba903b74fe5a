import ArgumentParser
import VoiceHost
import VoiceOSC

/// `voicerack run --help` laid out for a reader: the options first, one line each, then
/// examples, then the details.
///
/// swift-argument-parser prints a command's discussion before its usage and its titled option
/// groups before the untitled ones; `Voicerack.main` prints `run`'s help in this order instead.
/// The discussion stays `Run`'s, so the man page (generated from the same declarations) keeps
/// the examples and details in its description.
///
/// - Realtime: never; main thread.
enum RunHelp {
    /// `Run`'s discussion: the examples, then the details the one-line options leave out.
    static let discussion = """
        EXAMPLES:
          voicerack run --preset echo-cancel
          voicerack run --preset podcast --record 'take-{date}.flac'
          voicerack run --record v.wav --record tuning=t.wav --control
          voicerack run --preset echo-cancel --osc 9000 --web 8080
          voicerack run --preset karaoke --backing song.flac
          voicerack run --record-on-freewheel --record render.wav
          voicerack run --stream icecast://source@host:8000/live.ogg
          pw-jack voicerack run --pipewire
          kill -USR1 $(pidof voicerack)    # start or stop recording

        DETAILS:

        Options in detail: --wait-for-server waits for the JACK server instead of exiting 69: at \
        start, until one runs (the systemd user unit and the launcher use this); later, when it \
        goes away, voicerack finalises the recordings, waits for it to come back and goes on with \
        the same ports and connections, recording into new files (NAME-take2.wav, ...). \
        --log-level picks the least severe lines printed (\(LogLevelChoice.names.joined(separator: ", "))); \
        lines carry a UTC timestamp and the level when standard output is not a terminal. --server defaults to $JACK_DEFAULT_SERVER, \
        else 'default'. --record-buffer sizes the buffer that rides out a slow disk. --format is \
        CONTAINER[:ENCODING] (wav:pcm24, flac, w64, ...; default from each file's extension).

        More on the options: --osc 0 picks a free port (printed at start); the --osc-secret-file's \
        first line is 8 to 256 bytes. --record-on-freewheel starts each freewheel run from a freshly \
        built engine, so the take equals `voicerack process` of what was played. \
        --backing-follows-transport plays the backing track while the transport rolls, from the \
        transport's frame (a locate moves it; the transport waits until the track is read ahead from \
        there). --stream-tap is voice (the default, or stream.tap), mic, reference, monitor or karaoke; \
        --stream-format defaults to stream.format, \
        else the mount's extension (.ogg/.opus or .mp3), else opus; --stream-bitrate to \
        stream.bitrate_kbps, else 64 for Opus and 128 for MP3; --stream-password-file reads the \
        file's first line. Each --stream option overrides the preset's [stream] key of the same meaning.

        PipeWire desktop: --pipewire (under pw-jack) links voice_out to the microphone node, the \
        call node's monitor to far_in_L/R, speaker_out_L/R to the output device and the input device \
        to mic_in, and makes those links again whenever their ports appear (PipeWire or WirePlumber \
        restarted, a new default device). The nodes come from the installed pipewire.conf.d \
        fragment; --pipewire-mic and --pipewire-call name others. On plain jackd it auto-connects \
        as usual. --make-default also makes the call node the default sink and the microphone node \
        the default source, as the user's choice in WirePlumber (as wpctl set-default does); \
        without it the defaults are left as they are.

        Ports: mic_in, far_in_L, far_in_R (inputs); voice_out, speaker_out_L, speaker_out_R, \
        monitor_out_L, monitor_out_R (outputs). far_in is copied to speaker_out and is the echo \
        reference. By default mic_in is connected to the first physical capture port and \
        speaker_out_L/R to the first two physical playback ports; voice_out is never connected \
        to the speakers.

        Recording: --record FILE records the processed voice; --record TAP=FILE records a tap: \
        voice, mic (raw), reference (far end as sent to the speakers, 2 ch), monitor (2 ch) or \
        tuning (mic, reference mix and voice in 3 sample-aligned channels). FILE may contain \
        {date}, {time} (HHMMSS), {ms} (its milliseconds), {n} (the take of this run, from 1), \
        {client} and {tap}. --record is repeatable. A name a take of this run already wrote is never reused, even with \
        --force: the new take gets -2, -3 ... before the extension, and its log line says so. Bad formats are refused (64), as are files that \
        cannot be created or exist without --force (73), before the client starts.

        Backing track: --backing FILE (or the preset's [backing] file) plays a track (any format \
        libsndfile reads, mono or stereo, resampled to JACK's rate, read ahead by its own thread) \
        on speaker_out_L/R at backing.level_db, added after ducking, so it is part of the echo \
        reference (its echo is cancelled from the mic) and of the monitor's far mix. The karaoke \
        tap (--record karaoke=FILE) records voice + backing in stereo, the backing delayed to line \
        up with the voice. SIGUSR2 pauses or resumes the track (with a 20 ms fade). A missing \
        file exits 66, one that is not mono/stereo audio 65, before the client opens.

        SIGUSR1 starts or stops recording: stopping finalises the files and prints what was \
        written; starting opens new files from the same templates (so {time} differs). Without \
        --record, SIGUSR1 records the voice to {client}-{date}-{time}-{tap}.wav in the \
        current folder. Example: kill -USR1 $(pidof voicerack)

        After a crash or SIGKILL a take stays readable: WAV (the default), W64, RF64, CAF and \
        AIFF lose under 0.1 s; FLAC, Opus and MP3 (written at a constant bitrate) about 0.15 s; \
        Ogg Vorbis up to about 2 s (libsndfile cannot flush a partial Vorbis page).

        The status line shows the worst callback time as % of the period and, while recording, \
        the files and frames lost to a slow disk (the files keep their timeline: lost frames \
        are written as silence). SIGINT/SIGTERM finalise every file and print a summary.

        Live changes: SIGHUP re-reads the preset (its file, or the shipped preset of that name) \
        and applies every changed key that can change while running, gliding without clicks: \
        input/output gain, agc levels, every effect unit's parameters (LV2 units' controls \
        too), monitor levels and pan, ducking depth, monitor.feedback_guard, the residual echo \
        post-filter's preprocessor.residual_suppression, coherence_suppression, \
        clipping_coherence_suppression and leftover_echo_suppression, and \
        residual_echo_gate_db (so load echo-cancel-strong from echo-cancel needs no \
        restart). A different chain \
        (chain.order, LV2 plugins or their states) is built off the process thread and swapped \
        in. Other keys that shape the engine (frame_ms, tail_ms, delay settings, other \
        preprocessor settings, highpass_hz, monitor enabled or source, ducking times) are reported as \
        "needs a restart" and ignored. A preset that \
        does not load is reported with file:line and the key; the running setup stays. \
        Example: kill -HUP $(pidof voicerack)

        --control reads commands from standard input, one per line: set KEY VALUE (keys as in \
        presets, e.g. set compressor.threshold_dbfs -18, set monitor.master_db -6; an LV2 unit's \
        control by port symbol, e.g. set peak.threshold -2, checked against its range), get KEY, \
        show, load PRESET, unmute, record, stop, pause or backing play|pause (the backing track), \
        mute on|off, stream start|stop, status, help. A bad key or value is \
        answered with the key and its allowed range. On a terminal the prompt keeps the bottom \
        row: the status line and the log never overwrite what you type.

        Feedback guard: when the monitor plays through speakers and the loop howls (a narrow \
        peak growing in the mic), the monitor is muted (a 20 ms glide) and a line names the \
        frequency. Use headphones or lower monitor.master_db, then unmute with SIGHUP or \
        `unmute`.

        Streaming: --stream icecast://USER@HOST:PORT/MOUNT (or the preset's [stream] url) \
        sends a tap (--stream-tap, default voice) to Icecast as Opus or MP3 while recording goes \
        on; a dropped connection reconnects with backoff, and the status line shows the state, \
        bitrate and time on air. The password comes from the URL, --stream-password-env or \
        --stream-password-file (a preset names only the variable or the file) and is never \
        printed. Bad settings exit 64, an unreachable server 69 and refused credentials 77, \
        before the client opens. SIGRTMIN+1 starts or stops the stream (SIGUSR1 and SIGUSR2 \
        are taken), as `stream start|stop` does with --control; with stream.autostart = false \
        the stream waits for it. Example: kill -s RTMIN+1 $(pidof voicerack)

        OSC: --osc PORT listens for OSC messages on UDP 127.0.0.1:PORT. --osc-secret-file FILE \
        makes every message carry the secret on the file's first line as its first argument \
        (s); others are refused, and the secret is never printed or sent back. --osc-host \
        listens elsewhere: beyond loopback it needs --osc-secret-file (the secret travels \
        unencrypted: a trusted network only). Every message is answered, at the \
        sender's address, or at --osc-reply-port on its host (listen there with oscdump): /voicerack/reply ADDRESS LINE... or /voicerack/error ADDRESS MESSAGE \
        naming what is wrong. Commands run on the main thread, exactly like --control's. \
        Example: oscsend localhost 9000 /voicerack/set sf monitor.master_db -6. The addresses:

        \(OSCAddressSpace.help.joined(separator: "\n\n"))

        NSM: when NSM_URL is set (New Session Manager, RaySession, Agordejo), voicerack announces \
        itself (capabilities :dirty:message:) and opens its JACK client only once the manager \
        opens a session, named with the session's client id. The session's folder holds its \
        preset copy (preset.toml, written from --preset when new; read back when the session is \
        opened again) and a recordings folder that relative --record names and the default \
        take go to. Save writes the running setup with its live changes to preset.toml \
        atomically; live changes mark the session dirty, saves clean; warnings and errors go to \
        the manager as messages; SIGTERM from the manager finalises the recordings and quits. \
        Started without arguments under a session manager, voicerack runs with the echo-cancel \
        preset.

        Web panel: --web [HOST:]PORT serves a control panel to a browser: live meters (levels \
        with peak hold and clip lamps, echo removal, delay, drift, voice activity, leveller, \
        load, xruns, recording) 25 times a second with a 30 s history, a control per preset key \
        (restart-only keys marked), record start/stop, backing pause and \
        level, monitor unmute, voice mute, preset load and save. It listens on 127.0.0.1 unless \
        another host is given (with a warning), and only answers the address printed at start, \
        which carries a random token. Example: voicerack run --web 8080, then open the printed \
        http://127.0.0.1:8080/?token=... address.

        Freewheel and transport: --record-on-freewheel records only while the server \
        freewheels (render a session faster than real time: start voicerack, then \
        `jack_freewheel 1`, and `jack_freewheel 0` when done); nothing is lost, since the \
        recorder and the backing track are waited for (there is no deadline in freewheel), and \
        xrun and overrun counts pause. --record-on-transport records only while the JACK \
        transport rolls. Either way each run or roll is a take of its own: NAME.wav, \
        NAME-take2.wav, ...; WAV, WAVEX and RF64 takes carry the transport frame of their first \
        sample as their BWF time reference. The files of the next take are opened when a take \
        ends; a roll that starts within a few tenths of a second of the last stop begins its \
        take late (the time reference still names its first sample).

        Exits with 69 when the JACK server is not running or shuts down (recordings are \
        finalised first).
        """

    /// `run`'s help laid out options first, when `arguments` (without the program's name) ask
    /// for it; nil for anything else, which `main` then handles as usual.
    static func requested(by arguments: [String]) -> String? {
        // Anything else is parsed once, by `main`, as it always was.
        let helpWords: Set = ["-h", "--help", "--help-hidden", "-help", "help"]
        guard arguments.contains(where: helpWords.contains) else { return nil }
        do {
            // swift-argument-parser answers --help, -h and `help` with a command of its own, whose
            // run throws the help request; any other command is returned here without running.
            var command = try Voicerack.parseAsRoot(arguments)
            guard String(describing: type(of: command)) == "HelpCommand" else { return nil }
            try command.run()
            return nil
        } catch {
            let message = Voicerack.fullMessage(for: error)
            return message == Voicerack.helpMessage(for: Run.self) ? laidOut(message) : nil
        }
    }

    /// The generated help reordered: the overview, the usage, the untitled OPTIONS, the titled
    /// groups in their order, then the discussion (examples and details).
    static func laidOut(_ generated: String) -> String {
        let halves = generated.components(separatedBy: "\nUSAGE: ")
        guard halves.count == 2 else { return generated }
        let head = halves[0].components(separatedBy: "\n\n")
        let blocks = ("USAGE: " + halves[1]).trimmingTrailingNewlines.components(separatedBy: "\n\n")
        let options = blocks.filter { $0.hasPrefix("OPTIONS:") }
        let groups = blocks.dropFirst().filter { !$0.hasPrefix("OPTIONS:") }
        let parts = [head[0], blocks[0]] + options + groups + head.dropFirst()
        return parts.joined(separator: "\n\n")
    }
}

extension String {
    /// The string without its trailing newlines.
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
