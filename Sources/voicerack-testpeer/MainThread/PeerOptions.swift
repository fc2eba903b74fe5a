import Foundation

/// The test peer's command line (parsed by hand: the peer is a small test tool and keeps its
/// dependencies to CJack, CJackShim and VoiceFiles).
///
/// - Realtime: never; main thread, before the client opens.
struct PeerOptions {
    /// JACK server name; nil means `$JACK_DEFAULT_SERVER` or `default`.
    var server: String?
    /// Client name asked for.
    var name = "testpeer"
    /// The client whose mic_in, far_in_L/R and voice_out the peer connects to.
    var target = "voicerack"
    /// Played into `mic` (mono; the first channel of a multichannel file).
    var micPath = ""
    /// Played into `far_L` and `far_R` (mono duplicated, or the first two channels).
    var refPath = ""
    /// Where the recording goes (32-bit float WAV, one channel per listened port).
    var outPath = ""
    /// The target's output ports recorded, in this order (at most `PeerPorts.maxListened`).
    var listen = ["voice_out"]
    /// Seconds played and recorded after the longer input ends, so the processed tail is kept.
    var tail = 0.5
    /// Seconds the whole run may take before the peer gives up (exit 70).
    var timeout = 120.0
    /// Play only while the server freewheels, and make it freewheel for the whole playback
    /// (`jack_set_freewheel`), so the scenario is rendered faster than real time.
    var freewheel = false
    /// `--room IR.wav`: play only the mic, from the first sample the first listened port carries
    /// sound, plus that port's echo through the impulse response: the room around a far end that
    /// reaches the target from elsewhere (no --ref; far_L/R unconnected).
    var roomPath: String?
    var room: Bool { roomPath != nil }

    static let usage = """
        usage: voicerack-testpeer --target CLIENT --mic MIC.wav --ref REF.wav --out OUT.wav
                                  [--server NAME] [--name NAME] [--tail SECONDS] [--timeout SECONDS]
                                  [--listen PORT,PORT...] [--freewheel]
               voicerack-testpeer --room IR.wav --target CLIENT --mic MIC.wav --out OUT.wav --listen PORT,...

        Plays MIC into CLIENT:mic_in and REF into CLIENT:far_in_L/R from one process callback (the
        same cycle feeds both), records CLIENT:voice_out into OUT from the cycle playback starts,
        and exits once MIC/REF plus the tail have been played. OUT frame n was recorded in the
        cycle that played input frame n. --listen records other output ports of CLIENT instead
        (default voice_out; e.g. voice_out,monitor_out_L,speaker_out_L), one channel each in that
        order, all sample-aligned the same way. --freewheel makes the server freewheel from the
        first played frame until every frame was played, and plays only while it freewheels; the
        report then gives the frames of every cycle run freewheeling. --room plays MIC only, from the
        sample at which the first listened port (e.g. speaker_out_L, or a full name such as
        system:monitor_FL) first carries sound, and adds that port's echo through the impulse
        response IR (its non-zero taps): a room around a far end that reaches CLIENT from elsewhere. Exit codes: 0 ok, 64 usage, 65 bad input, 69 JACK server
        unavailable or gone, 70 timeout, 73 OUT cannot be written.
        """

    /// Parses `arguments` (without the program name); throws a `PeerFailure` with status 64.
    init(_ arguments: [String]) throws(PeerFailure) {
        var rest = arguments[...]
        func value(_ flag: String) throws(PeerFailure) -> String {
            guard let v = rest.popFirst() else { throw PeerFailure(64, "\(flag) needs a value\n\(Self.usage)") }
            return v
        }
        func seconds(_ flag: String) throws(PeerFailure) -> Double {
            let text = try value(flag)
            guard let s = Double(text), s >= 0 else { throw PeerFailure(64, "\(flag) \(text): expected seconds ≥ 0") }
            return s
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--server": server = try value(flag)
            case "--name": name = try value(flag)
            case "--target": target = try value(flag)
            case "--mic": micPath = try value(flag)
            case "--ref": refPath = try value(flag)
            case "--out": outPath = try value(flag)
            case "--tail": tail = try seconds(flag)
            case "--timeout": timeout = try seconds(flag)
            case "--freewheel": freewheel = true
            case "--room": roomPath = try value(flag)
            case "--listen":
                listen = try value(flag).split(separator: ",").map(String.init)
                guard (1...PeerPorts.maxListened).contains(listen.count) else {
                    throw PeerFailure(64, "--listen: 1 to \(PeerPorts.maxListened) ports, comma-separated")
                }
            case "-h", "--help": throw PeerFailure(0, Self.usage)
            default: throw PeerFailure(64, "unknown argument \(flag)\n\(Self.usage)")
            }
        }
        guard !micPath.isEmpty, room || !refPath.isEmpty, !outPath.isEmpty else {
            throw PeerFailure(64, "--mic, --ref (unless --room) and --out are required\n\(Self.usage)")
        }
    }
}

/// A failure with the exit status it maps to (sysexits, as voicerack's own).
struct PeerFailure: Error {
    let status: Int32
    let message: String
    init(_ status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }
}
