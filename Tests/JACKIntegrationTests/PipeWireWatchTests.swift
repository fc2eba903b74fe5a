import Foundation
import Glibc
import Testing
import VoiceTestSupport

/// `--pipewire` following the desktop: a new default sink or source (a headset plugged in) takes
/// speaker_out or mic_in, and a PipeWire daemon that stopped answering (SIGSTOP) holds neither
/// the main loop's OSC answers nor voicerack (the graph is read on a thread of its own).
///
/// In the serialized live suite, so only one server runs at a time.
extension LiveClientTests {
    @Test(
        "a new default sink (pactl set-default-sink) takes speaker_out_L/R within 5 s, the old links taken back; a new default source takes mic_in",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireFollowsDefaults() throws {
        let server = try PipeWireServer(desktop: .init(secondDevices: true))
        defer { server.stop() }
        let before = try Self.defaults(on: server)
        #expect(before == ("system-playback", "system-capture"), "defaults before voicerack: \(before)")
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let client = Self.pipeWireClient
        _ = try server.pactl(["set-default-sink", "second-playback"])
        var changed = Date()
        var left: [String] = [], right: [String] = []
        let sinkFollowed = poll(timeout: 5) {
            left = Self.peers(of: "\(client):speaker_out_L", on: server)
            right = Self.peers(of: "\(client):speaker_out_R", on: server)
            return left == [PipeWireServer.secondPlaybackPorts[0]] && right == [PipeWireServer.secondPlaybackPorts[1]]
        }
        let sinkSeconds = Date().timeIntervalSince(changed)
        #expect(sinkFollowed, "speaker_out_L \(left), _R \(right):\n\(voicerack.output)")
        _ = try server.pactl(["set-default-source", "second-capture"])
        changed = Date()
        var mic: [String] = []
        let sourceFollowed = poll(timeout: 5) {
            mic = Self.peers(of: "\(client):mic_in", on: server)
            return mic == [PipeWireServer.secondCapturePorts[0]]
        }
        let sourceSeconds = Date().timeIntervalSince(changed)
        #expect(sourceFollowed, "mic_in \(mic):\n\(voicerack.output)")
        print(
            "pipewire default change: speaker_out followed in \(fmt(sinkSeconds)) s, mic_in in \(fmt(sourceSeconds)) s"
        )
        // The call node and the microphone node kept their links.
        #expect(Self.peers(of: "\(client):voice_out", on: server) == [Self.micNodeInput])
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    @Test(
        "PipeWire stopped (SIGSTOP) for 8 s: OSC status questions are answered within 1.5 s all along; links and voicerack survive",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && oscPeerAvailable,
            "pipewire-pulse, pulseaudio-utils, wireplumber or python3-liblo is missing"))
    func pipeWireStoppedHoldsNothing() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"], ["--osc", "0"])
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let daemon = server.daemonProcessID
        Glibc.kill(daemon, SIGSTOP)
        var resumed = false
        defer { if !resumed { Glibc.kill(daemon, SIGCONT) } }
        let stopped = Date()
        var delays: [Double] = []
        while Date().timeIntervalSince(stopped) < 8 {
            let answer = try Self.oscAsk(port, "/voicerack/status")
            #expect(answer.isReply, "\(answer)")
            delays.append(answer.received - answer.sent)
        }
        Glibc.kill(daemon, SIGCONT)
        resumed = true
        print(
            "pipewire stopped 8 s: \(delays.count) OSC status answers, slowest \(fmt(delays.max() ?? -1)) s, median \(fmt(delays.sorted()[delays.count / 2])) s"
        )
        #expect(delays.count >= 4 && (delays.max() ?? 99) < 1.5, "answer delays \(delays)")
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    @Test(
        "a link the user takes away (jack_disconnect voice_out from the microphone node) stays away; the other links stay",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && Tools.which("jack_disconnect") != nil,
            "pipewire-pulse, pulseaudio-utils, wireplumber or jack_disconnect is missing"))
    func pipeWireLeavesLinksTakenAway() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let voiceOut = "\(Self.pipeWireClient):voice_out"
        let status = try server.tool(
            try #require(Tools.which("jack_disconnect")), ["-s", server.name, voiceOut, Self.micNodeInput])
        #expect(status.status == 0, "\(status.output)")
        // Three looks at the graph later (every 2 s), voicerack has not made it again.
        Thread.sleep(forTimeInterval: 6.5)
        #expect(Self.peers(of: voiceOut, on: server).isEmpty, "\(voicerack.output)")
        #expect(voicerack.output.contains("was taken away"), "\(voicerack.output)")
        let others = Self.pipeWireLinks.filter { $0.0 != voiceOut }
        let missing = others.filter { !Self.peers(of: $0.0, on: server).contains($0.1) }
        #expect(missing.isEmpty, "lost \(missing)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    @Test(
        "--pipewire on plain jackd (no PipeWire answers pw-dump): it says so once and auto-connects mic_in and speaker_out as without it"
    )
    func pipeWireOnPlainJACK() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(
            on: server, linking: ["--pipewire"], environment: ["PIPEWIRE_REMOTE": "voicerack-none-\(getpid())"])
        defer { voicerack.stop(SIGKILL) }
        let connected = poll(timeout: 10) {
            Self.peers(of: "\(Self.pipeWireClient):mic_in", on: server) == ["system:capture_1"]
        }
        #expect(connected, "\(voicerack.output)")
        #expect(
            voicerack.output.components(separatedBy: "auto-connecting instead").count == 2, "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }
}

extension LiveClientTests {
    /// The process ids of `parent`'s children called `name` (`/proc/PID/stat`), and whether
    /// each still runs (not a zombie: PID 1 here reaps no orphan).
    static func children(of parent: pid_t, named name: String) -> [(pid: pid_t, running: Bool)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (pid_t, Bool)? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard stat[stat.index(after: open)..<close] == name, fields.count > 1, pid_t(fields[1]) == parent else {
                return nil
            }
            return (pid, fields[0] != "Z")
        }
    }

    /// True while `pid` runs (exists and is no zombie).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    @Test(
        "voicerack killed with SIGKILL: its pw-dump --monitor child dies with it within 1 s, with nothing changing in PipeWire",
        .enabled(if: PipeWireServer.available, "PipeWire or its JACK library is missing"))
    func pipeWireWatchDiesWithVoicerack() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"])
        defer { voicerack.stop(SIGKILL) }
        var watchers: [(pid: pid_t, running: Bool)] = []
        try #require(
            poll(timeout: 10) {
                watchers = Self.children(of: voicerack.pid, named: "pw-dump")
                return !watchers.isEmpty
            },
            "no pw-dump child of voicerack \(voicerack.pid):\n\((try? runTool("/bin/ps", ["-eo", "pid,ppid,stat,comm,args"]).output) ?? "")"
        )
        // Nothing changes in PipeWire after this but voicerack's own client going: SIGSTOP
        // keeps PipeWire from telling pw-dump of it, so only the parent's death can end pw-dump.
        kill(server.daemonProcessID, SIGSTOP)
        defer { kill(server.daemonProcessID, SIGCONT) }
        let killed = Date()
        voicerack.stop(SIGKILL)
        let gone = poll(timeout: 1) { !watchers.contains { Self.isRunning($0.pid) } }
        print("pw-dump after SIGKILL of voicerack: gone \(gone) after \(fmt(Date().timeIntervalSince(killed))) s")
        #expect(gone, "pw-dump \(watchers.map(\.pid)) still runs 1 s after voicerack was killed")
    }
}
