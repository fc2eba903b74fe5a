import Foundation
import Testing
import VoiceFiles

/// A running server's sample rate changes under voicerack: it refuses clearly and keeps the
/// recording.
///
/// jackd cannot change its rate, but JACK's D-Bus server can: `jack_control sm` (switch master)
/// reopens the driver with new parameters and notifies every client's sample-rate callback. The
/// test runs jackdbus in a private session bus (`dbus-run-session`) with a private HOME, so it
/// neither touches the user's session nor writes to their JACK configuration.
extension LiveClientTests {
    /// True when jackdbus can be driven here: jack_control (with the system Python's dbus module)
    /// and a session bus to run it on.
    static var jackDBusAvailable: Bool {
        guard Tools.which("dbus-run-session") != nil, Tools.which("jack_control") != nil,
            Tools.which("jackdbus") != nil
        else { return false }
        let probe = try? runTool("/usr/bin/python3", ["-c", "import dbus"])
        return probe?.status == 0
    }

    /// Starts a dummy-driver server at 48 kHz through jackdbus, runs voicerack recording the
    /// voice, switches the driver to 44.1 kHz after a second, waits for voicerack to exit and
    /// prints its exit status as `voicerack-exit=N`. Exit 90/91: the server could not be started
    /// or switched (a setup problem, not voicerack's).
    static let sampleRateSwitchScript = #"""
        set -u
        trap 'jack_control stop >/dev/null 2>&1; jack_control exit >/dev/null 2>&1' EXIT
        { jack_control eps name "$SERVER" && jack_control eps realtime false && jack_control ds dummy \
          && jack_control dps rate 48000 && jack_control dps period 256 && jack_control start; } >/dev/null || exit 90
        "$VOICERACK" run --server "$SERVER" --name vr-rate --no-auto-connect --preset echo-cancel \
          --record "voice=$RECORDING" >"$LOG" 2>&1 &
        pid=$!
        for _ in $(seq 100); do grep -q "running as JACK client" "$LOG" && break; sleep 0.1; done
        sleep 1
        { jack_control dps rate 44100 && jack_control sm; } >/dev/null || { kill $pid; exit 91; }
        for _ in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
        kill $pid 2>/dev/null
        wait $pid
        echo "voicerack-exit=$?"
        """#

    @Test(
        "the server switches from 48 to 44.1 kHz: voicerack says so, exits 69, the recording is intact",
        .enabled(
            if: jackDBusAvailable,
            "jackdbus, jack_control, python3-dbus or dbus-run-session missing (scripts/install-deps.sh installs them)"))
    func sampleRateChangeIsRefused() throws {
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = folder + "/voice.wav", log = folder + "/voicerack.log"
        let (status, output) = try runTool(
            "/usr/bin/dbus-run-session", ["--", "bash", "-c", Self.sampleRateSwitchScript], timeout: 60,
            environment: [
                "HOME": folder, "XDG_CONFIG_HOME": folder,
                "SERVER": "vr-rate-\(getpid())-\(UInt16.random(in: 0...9999))",
                "VOICERACK": binary, "RECORDING": recording, "LOG": log,
            ])
        let voicerack = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "script output:\n\(output)\nvoicerack:\n\(voicerack)")
        #expect(output.contains("voicerack-exit=69"), "script output:\n\(output)\nvoicerack:\n\(voicerack)")
        #expect(
            voicerack.contains("error: JACK switched the sample rate from 48000 to 44100 Hz")
                && voicerack.contains("Restart voicerack"),
            "voicerack:\n\(voicerack)")
        #expect(voicerack.contains("summary: recorded voice to \(recording)"), "voicerack:\n\(voicerack)")
        // Intact: libsndfile reads it at the rate it was made at, with the second or so that ran.
        let audio = try AudioFileContents.read(recording)
        #expect(audio.sampleRate == 48000)
        #expect(Self.seconds(audio) > 0.8 && Self.seconds(audio) < 6, "lasts \(Self.seconds(audio)) s")
    }
}
