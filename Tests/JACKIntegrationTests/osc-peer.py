#!/usr/bin/python3
"""A real OSC peer for voicerack's OSC tests, built on liblo (python3-liblo, Debian).

  osc-peer.py ask PORT ADDRESS [ARG...]   send one message, print what comes back until the
                                          reply or error to ADDRESS (JSON lines); ARG is
                                          s:text, f:1.5, i:3, d:1.5, T, F or N
  osc-peer.py meters PORT RATE SECONDS    register for meters at RATE Hz, count the pushes
                                          for SECONDS, unregister; print one JSON line
  osc-peer.py fuzz PORT COUNT SEED        send COUNT random packets (garbage, truncated and
                                          well-formed messages to random addresses), each
                                          waited for; print one JSON line with the tally

Times are from time.monotonic(), seconds.
"""
import json
import random
import socket
import struct
import sys
import time

import liblo


def typed(arg):
    if arg in ("T", "F", "N"):
        return {"T": ("T", True), "F": ("F", False), "N": ("N", None)}[arg]
    kind, _, text = arg.partition(":")
    if kind == "s":
        return ("s", text)
    if kind == "i":
        return ("i", int(text))
    return (kind, float(text))


def plain(value):
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def ask(port, address, args):
    server = liblo.Server()
    got = []
    server.add_method(None, None, lambda path, a, types, src: got.append((time.monotonic(), path, a)))
    message = liblo.Message(address)
    for arg in args:
        message.add(typed(arg))
    sent = time.monotonic()
    server.send(("127.0.0.1", int(port)), message)
    print(json.dumps({"sent": sent}))
    deadline = sent + 10
    done = False
    while not done and time.monotonic() < deadline:
        server.recv(50)
        while got:
            t, path, a = got.pop(0)
            print(json.dumps({"t": t, "path": path, "args": [plain(x) for x in a]}), flush=True)
            if path in ("/voicerack/reply", "/voicerack/error") and a and a[0] == address:
                done = True
    if not done:
        print(json.dumps({"timeout": True}))


def meters(port, rate, seconds):
    server = liblo.Server()
    times = []
    state = []
    replies = []
    server.add_method("/voicerack/meters", None, lambda p, a, t, s: times.append(time.monotonic()))
    server.add_method("/voicerack/state", None, lambda p, a, t, s: state.append(len(a)))
    server.add_method(None, None, lambda p, a, t, s: replies.append([p] + [plain(x) for x in a]))
    target = ("127.0.0.1", int(port))
    server.send(target, liblo.Message("/voicerack/meters/register", float(rate)))
    end = time.monotonic() + float(seconds)
    while time.monotonic() < end:
        server.recv(5)
    server.send(target, liblo.Message("/voicerack/meters/unregister"))
    quiet = time.monotonic() + 0.5
    while time.monotonic() < quiet:
        server.recv(5)
    # Pushes after the unregister reply would mean the unregister did not take.
    print(json.dumps({"meters": times, "state_fields": sorted(set(state)), "replies": replies}))


def pad(b):
    return b + b"\0" * (4 - len(b) % 4)


def encode(address, args):
    tags = ","
    data = b""
    for kind, value in args:
        tags += kind
        if kind == "i":
            data += struct.pack(">i", value)
        elif kind == "f":
            data += struct.pack(">f", value)
        elif kind == "d":
            data += struct.pack(">d", value)
        elif kind == "s":
            data += pad(value.encode())
        elif kind == "b":
            data += struct.pack(">i", len(value)) + value + b"\0" * (-len(value) % 4)
    return pad(address.encode()) + pad(tags.encode()) + data


ADDRESSES = ["/voicerack/set", "/voicerack/get", "/voicerack/show", "/voicerack/status", "/voicerack/help",
             "/voicerack/voice/mute", "/voicerack/backing/level", "/voicerack/backing/toggle",
             "/voicerack/preset/load", "/voicerack/monitor/unmute", "/voicerack/meters/register",
             "/voicerack/meters/unregister", "/voicerack/stream/start", "/voicerack/nope", "/", "/voicerack",
             "/voicerack/set/extra", "/VOICERACK/SET"]
KEYS = ["output.gain_db", "monitor.master_db", "compressor.threshold_dbfs", "chain.order", "nope", "", "a.b.c",
        "echo_canceller.tail_ms", "monitor.source"]


def random_arg(rng):
    kind = rng.choice("ifdsTFNb")
    if kind == "i":
        return ("i", rng.randint(-2**31, 2**31 - 1))
    if kind == "f":
        return ("f", rng.choice([0.0, -6.0, 1e30, -1e30, float("nan"), float("inf"), rng.uniform(-100, 100)]))
    if kind == "d":
        return ("d", rng.uniform(-1e6, 1e6))
    if kind == "s":
        return ("s", rng.choice(KEYS + ["".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 40)))]))
    if kind == "b":
        return ("b", bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 9))))
    return (kind, None)


def random_packet(rng):
    choice = rng.random()
    if choice < 0.25:
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 64)))
    address = rng.choice(ADDRESSES)
    if address == "/voicerack/meters/register":
        address = "/voicerack/help"  # pushes would interleave with the answers counted here
    args = [random_arg(rng) for _ in range(rng.randint(0, 3))]
    if address in ("/voicerack/set", "/voicerack/get") and rng.random() < 0.5:
        args = [("s", rng.choice(KEYS))] + args[:1]
    packet = encode(address, args)
    if choice < 0.45:
        packet = packet[:rng.randint(0, len(packet))]
    elif choice < 0.55:
        packet = bytearray(packet)
        for _ in range(rng.randint(1, 4)):
            packet[rng.randrange(len(packet))] = rng.randint(0, 255)
        packet = bytes(packet)
    return packet


def fuzz(port, count, seed):
    rng = random.Random(int(seed))
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(5)
    target = ("127.0.0.1", int(port))
    replies = errors = 0
    unanswered = []
    for n in range(int(count)):
        packet = random_packet(rng)
        sock.sendto(packet, target)
        answered = False
        while not answered:
            try:
                data, _ = sock.recvfrom(65536)
            except socket.timeout:
                unanswered.append(packet.hex())
                break
            path = data.split(b"\0", 1)[0]
            if path == b"/voicerack/reply":
                replies += 1
                answered = True
            elif path == b"/voicerack/error":
                errors += 1
                answered = True
    print(json.dumps({"sent": int(count), "replies": replies, "errors": errors, "unanswered": unanswered}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "ask":
        ask(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif command == "meters":
        meters(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "fuzz":
        fuzz(sys.argv[2], sys.argv[3], sys.argv[4])
