import Foundation
import Testing

/// JACK metadata hygiene: voicerack labels its ports (pretty-names and a port order) and removes
/// every property it set when it leaves, so a server that reuses port ids never shows another
/// program's ports under voicerack's names. Checked on both kinds of server users run: a plain
/// jackd and JACK's D-Bus server (what qjackctl starts), which keeps metadata after its clients
/// are gone.
extension LiveClientTests {
    /// Runs voicerack on `$SERVER` (started by `$START`) three times: the first is killed with
    /// SIGKILL (it removes nothing; the server may), the second loses its server to SIGKILL (jackd's
    /// metadata lives in a database beside the servers, so only voicerack can remove its labels
    /// then; with `$KILL_SERVER` unset the server is stopped normally), the third stops on SIGINT.
    /// Prints `jack_property -l` while each runs and after each ends, between marker lines.
    static let metadataScript = #"""
        set -u
        list() { echo "== $1"; JACK_DEFAULT_SERVER="$SERVER" jack_property -l 2>&1; }
        uuids() {
          echo "== uuids-$1"
          client=$(sed -n "s/.*running as JACK client '\([^']*\)'.*/\1/p" "$LOG")
          jack_lsp -s "$SERVER" -U 2>&1 | awk -v c="$client:" 'index($0, c) == 1 { mine = 1; next } /uuid:/ { if (mine) print $2; mine = 0; next } { mine = 0 }'
        }
        run() {
          "$VOICERACK" run --server "$SERVER" --name vr-meta --no-auto-connect --preset raw >"$LOG" 2>&1 &
          pid=$!
          # 30 s: under scripts/dev/stress-tests.sh a start right after a client was killed took
          # more than 10 s once. Not starting at all ends the script, with voicerack's log.
          for _ in $(seq 300); do grep -q "running as JACK client" "$LOG" && return; sleep 0.1; done
          echo "voicerack did not start within 30 s:"; cat "$LOG"; exit 91
        }
        eval "$START" || exit 90
        run; list running-1; uuids 1; kill -9 $pid; wait $pid 2>/dev/null
        for _ in $(seq 50); do jack_lsp -s "$SERVER" | grep -q vr-meta || break; sleep 0.1; done
        list killed
        run; list running-2; uuids 2
        if [ -n "${KILL_SERVER:-}" ]; then
          kill -9 $jpid; wait $jpid 2>/dev/null; wait $pid; echo "voicerack-exit-on-server-death=$?"
          eval "$START" || exit 90
          list server-restarted
        fi
        run; list running-3; uuids 3; kill -INT $pid; wait $pid; echo "voicerack-exit=$?"
        list stopped
        eval "$STOP"
        """#

    static let jackdStart =
        #"jackd -n "$SERVER" -S -d dummy -r 48000 -p 256 >/dev/null 2>&1 & jpid=$!; for _ in $(seq 100); do jack_lsp -s "$SERVER" >/dev/null 2>&1 && break; sleep 0.1; done"#
    static let jackdStop = #"kill $jpid; wait $jpid"#
    static let dbusStart =
        #"jack_control eps name "$SERVER" && jack_control eps realtime false && jack_control ds dummy && jack_control dps rate 48000 && jack_control dps period 256 && jack_control start >/dev/null"#
    static let dbusStop = #"jack_control stop >/dev/null; jack_control exit >/dev/null"#

    @Test(
        "jackd: the ports are labelled while voicerack runs, and jack_property -l is empty of its keys after it exits",
        .enabled(if: Tools.which("jack_property") != nil, "jack_property is missing"))
    func metadataRemovedOnJackd() throws {
        try checkMetadata(start: Self.jackdStart, stop: Self.jackdStop, wrapper: nil, killServer: true)
    }

    @Test(
        "JACK's D-Bus server (qjackctl's): the same, although it keeps metadata of clients that are gone",
        .enabled(
            if: jackDBusAvailable && Tools.which("jack_property") != nil,
            "jackdbus, jack_control or jack_property missing"))
    func metadataRemovedOnJackDBus() throws {
        try checkMetadata(
            start: Self.dbusStart, stop: Self.dbusStop, wrapper: "/usr/bin/dbus-run-session", killServer: false)
    }

    private func checkMetadata(start: String, stop: String, wrapper: String?, killServer: Bool) throws {
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment: [String: String?] = [
            "HOME": folder, "XDG_CONFIG_HOME": folder, "SERVER": "vr-meta-\(getpid())-\(UInt16.random(in: 0...9999))",
            "VOICERACK": binary, "LOG": folder + "/voicerack.log", "START": start, "STOP": stop,
            "KILL_SERVER": killServer ? "1" : nil,
        ]
        let command = ["bash", "-c", Self.metadataScript]
        let (status, output) = try runTool(
            wrapper ?? "/usr/bin/env", (wrapper == nil ? [] : ["--"]) + command, timeout: 60, environment: environment)
        try #require(status == 0 && output.contains("voicerack-exit=0"), "script:\n\(output)")
        func section(_ name: String) -> String {
            let parts = output.components(separatedBy: "== ")
            return parts.first { $0.hasPrefix(name + "\n") } ?? ""
        }
        // jackd2 keeps metadata in one database for every server of the user, and every server
        // numbers its ports alike: only the properties of this run's port ids count.
        func ids(_ run: Int) -> [String] {
            section("uuids-\(run)").split(separator: "\n").dropFirst().map(String.init).filter { UInt64($0) != nil }
        }
        func properties(_ listing: String, of run: Int) -> [String: [String]] {
            var result: [String: [String]] = [:]
            var subject: String?
            for line in listing.split(separator: "\n").map(String.init) {
                if line.hasPrefix("key: ") {
                    if let subject { result[subject, default: []].append(line) }
                } else {
                    subject = ids(run).contains(line) ? line : nil
                }
            }
            return result
        }
        for run in 1...3 {
            let listing = section("running-\(run)")
            try #require(ids(run).count == 8, "run \(run): the eight ports' ids:\n\(output)")
            let own = properties(listing, of: run)
            for id in ids(run) {
                let keys = own[id] ?? []
                // One pretty-name and one order each: whatever a killed run left on the id was replaced.
                #expect(
                    keys.filter { $0.contains("metadata/pretty-name") }.count == 1, "run \(run), port \(id): \(keys)")
                #expect(keys.filter { $0.contains("metadata/order") }.count == 1, "run \(run), port \(id): \(keys)")
            }
            #expect(own.values.joined().contains { $0.contains("value: Microphone") }, "run \(run):\n\(listing)")
        }
        var after = [("stopped", 3)]
        if killServer {
            #expect(output.contains("voicerack-exit-on-server-death=69"), "script:\n\(output)")
            after.append(("server-restarted", 2))
        }
        for (name, run) in after {
            let left = properties(section(name), of: run)
            #expect(left.isEmpty, "\(name): jack_property -l still holds voicerack's properties: \(left)")
        }
        print(
            "metadata after voicerack's SIGKILL:\n\(section("killed"))\nafter its server's SIGKILL:\n\(section("server-restarted"))\nafter the clean exit:\n\(section("stopped"))"
        )
    }
}
