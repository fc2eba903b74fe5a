#!/usr/bin/python3
"""A minimal NSM server (New Session Manager API 1.1) for voicerack's NSM test, on python3-liblo.

  nsm-server.py SESSION_DIR JACK_SERVER VOICERACK [ARG...]

Runs the whole scenario and prints one JSON line per step: launches voicerack with NSM_URL
set (as nsmd does), checks its announce, opens a session, makes a live change over voicerack's
OSC port, saves, breaks the preset copy and sends SIGHUP (the error must come back as
/nsm/client/message), saves again, records, ends it with SIGTERM; then launches it again into
the same session and reads the key back. The Swift test asserts on the lines.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import liblo

session_dir, jack_server, voicerack = sys.argv[1], sys.argv[2], sys.argv[3:]
CLIENT_ID = "voicerack.nTEST"
server = liblo.Server()
url = "osc.udp://127.0.0.1:%d/" % server.port
inbox = []
server.add_method(None, None, lambda path, args, types, src: inbox.append(
    (time.monotonic(), path, list(args), types, src.port)))


def out(step, **fields):
    fields["step"] = step
    print(json.dumps(fields), flush=True)


def wait_for(path, first=None, timeout=20):
    """The first message to `path` (whose first argument is `first`, when given)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i, m in enumerate(inbox):
            if m[1] == path and (first is None or (m[2] and m[2][0] == first)):
                return inbox.pop(i)
        server.recv(20)
    return None


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def jack_clients():
    listing = subprocess.run(["jack_lsp", "-s", jack_server], capture_output=True, text=True).stdout
    return sorted({line.split(":")[0] for line in listing.split("\n") if ":" in line})


def launch(osc_port, log):
    env = dict(os.environ, NSM_URL=url, JACK_NO_START_SERVER="1", JACK_DEFAULT_SERVER=jack_server)
    return subprocess.Popen(voicerack + ["--osc", str(osc_port), "--no-auto-connect"], env=env,
                            stdout=log, stderr=subprocess.STDOUT)


def osc_ask(port, address, *args):
    client = liblo.Server()
    got = []
    client.add_method(None, None, lambda p, a, t, s: got.append([p] + list(a)))
    client.send(("127.0.0.1", port), liblo.Message(address, *args))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(g[0] in ("/voicerack/reply", "/voicerack/error") for g in got):
        client.recv(20)
    client.free()
    return [g for g in got if g[0] in ("/voicerack/reply", "/voicerack/error")]


def announce_and_open(child, label):
    announce = wait_for("/nsm/server/announce")
    if announce is None:
        out(label + "-announce", missing=True)
        return False
    t, path, args, types, port = announce
    out(label + "-announce", types=types, args=args, child_pid=child.pid)
    server.send(("127.0.0.1", port), liblo.Message("/reply", "/nsm/server/announce", "welcome", "test-nsm",
                                                   ":server-control:"))
    time.sleep(0.3)  # anything that would register with JACK early has had time to
    out(label + "-before-open", clients=jack_clients())
    server.send(("127.0.0.1", port), liblo.Message("/nsm/client/open", session_dir + "/" + CLIENT_ID,
                                                   "Test Session", CLIENT_ID))
    reply = wait_for("/reply", "/nsm/client/open") or wait_for("/error", "/nsm/client/open", timeout=1)
    out(label + "-open", reply=reply[2] if reply else None, types=reply[3] if reply else None,
        clients=jack_clients())
    return port


def main():
    log = open(session_dir + "/voicerack-1.log", "w")
    osc = free_port()
    child = launch(osc, log)
    nsm_port = announce_and_open(child, "first")
    if not nsm_port:
        child.kill()
        return
    set_reply = osc_ask(osc, "/voicerack/set", "output.gain_db", -7.5)
    dirty = wait_for("/nsm/client/is_dirty")
    out("live-change", reply=set_reply, dirty=dirty is not None)
    server.send(("127.0.0.1", nsm_port), liblo.Message("/nsm/client/save"))
    saved = wait_for("/reply", "/nsm/client/save") or wait_for("/error", "/nsm/client/save", timeout=1)
    clean = wait_for("/nsm/client/is_clean")
    out("save", reply=saved[2] if saved else None, clean=clean is not None)

    preset = session_dir + "/" + CLIENT_ID + "/preset.toml"
    with open(preset) as f:
        saved_text = f.read()
    with open(preset, "w") as f:
        f.write("[output]\ngain_db = 99\n")
    child.send_signal(signal.SIGHUP)
    message = wait_for("/nsm/client/message")
    out("error-message", message=message[2] if message else None, types=message[3] if message else None)
    server.send(("127.0.0.1", nsm_port), liblo.Message("/nsm/client/save"))
    resaved = wait_for("/reply", "/nsm/client/save")
    with open(preset) as f:
        out("resave", reply=resaved[2] if resaved else None, same=f.read() == saved_text)

    record = osc_ask(osc, "/voicerack/record/start")
    time.sleep(1.0)
    child.send_signal(signal.SIGTERM)
    try:
        code = child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        code = None
    out("sigterm", record=record, exit=code, clients=jack_clients(),
        recordings=sorted(os.listdir(session_dir + "/" + CLIENT_ID + "/recordings")))

    log = open(session_dir + "/voicerack-2.log", "w")
    osc = free_port()
    child = launch(osc, log)
    if announce_and_open(child, "second"):
        out("reloaded", get=osc_ask(osc, "/voicerack/get", "output.gain_db"))
    child.send_signal(signal.SIGTERM)
    try:
        out("second-exit", exit=child.wait(timeout=20))
    except subprocess.TimeoutExpired:
        child.kill()
        out("second-exit", exit=None)


main()
