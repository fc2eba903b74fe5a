#!/usr/bin/env python3
"""Hostile clients against voicerack's web panel, for LivePanelAttackTests (stdlib only).

Usage: panel-attack.py URL PID [ATTACK,...]

URL is the panel's address with its token (as voicerack prints it), PID voicerack's process.
Runs, one after another, with the page fetched every 0.2 s throughout and voicerack's resident
memory sampled as often:
  header    one request with a 1 MB header line
  idle      2,000 connections that send nothing, held 5 s
  slowloris 500 connections sending a header byte a second, for 15 s
  frame     a WebSocket (with the token) sending a frame whose header claims 512 MB
(or only the attacks named, comma-separated) and prints one JSON object: per attack what the server did and when, the page's slowest answer
and failures, and voicerack's resident memory before and at its largest (kB).
"""
import json
import os
import resource
import socket
import sys
import threading
import time
import urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
pid = int(sys.argv[2])
host, port = url.hostname, url.port
token = urllib.parse.parse_qs(url.query)["token"][0]
origin = f"http://{host}:{port}"
# Room for 2,000 client sockets of our own, whatever voicerack's limit is.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))


def connect(timeout=5.0):
    s = socket.create_connection((host, port), timeout=timeout)
    return s


def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def closed_by_server(s, within):
    """True when the server closes (or resets) `s` within `within` seconds."""
    s.settimeout(within)
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            if not s.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except (socket.timeout, OSError):
        return False
    return False


class Watch(threading.Thread):
    """Fetches the page every 0.2 s and samples voicerack's memory until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.slowest = 0.0
        self.failures = []
        self.fetches = 0
        self.rss_max = 0

    def run(self):
        request = (f"GET /?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n").encode()
        while not self.stop.is_set():
            self.rss_max = max(self.rss_max, rss_kb())
            start = time.monotonic()
            try:
                s = connect(timeout=5)
                s.sendall(request)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                s.close()
                elapsed = time.monotonic() - start
                if not data.startswith(b"HTTP/1.1 200"):
                    self.failures.append(f"status {data[:40]!r}")
            except OSError as error:
                elapsed = time.monotonic() - start
                self.failures.append(f"{type(error).__name__}: {error}")
            self.fetches += 1
            self.slowest = max(self.slowest, elapsed)
            self.stop.wait(0.2)


def attack_header():
    s = connect()
    start = time.monotonic()
    line = f"GET /?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nX-Big: ".encode()
    sent = 0
    try:
        s.sendall(line)
        block = b"a" * 65536
        while sent < 1 << 20:
            s.sendall(block)
            sent += len(block)
    except OSError:
        pass
    status = ""
    try:
        s.settimeout(5)
        status = s.recv(100).decode(errors="replace").split("\r\n")[0]
    except OSError:
        pass
    closed = closed_by_server(s, 5)
    s.close()
    return {"status": status, "sent_kb": sent // 1024, "closed": closed, "seconds": time.monotonic() - start}


def attack_idle():
    sockets = []
    refused = 0
    for _ in range(2000):
        try:
            sockets.append(connect(timeout=2))
        except OSError:
            refused += 1
    time.sleep(5)
    closed = sum(1 for s in sockets if closed_by_server(s, 0.05))
    for s in sockets:
        s.close()
    return {"opened": len(sockets), "refused": refused, "closed_by_server_after_5s": closed}


def attack_slowloris():
    sockets = []
    for _ in range(500):
        try:
            s = connect(timeout=2)
            s.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())
            sockets.append(s)
        except OSError:
            pass
    open_at = {}
    start = time.monotonic()
    alive = list(sockets)
    while alive and time.monotonic() - start < 15:
        time.sleep(1)
        still = []
        for s in alive:
            try:
                s.sendall(b"a")
                still.append(s)
            except OSError:
                pass
        alive = still
        open_at[round(time.monotonic() - start)] = len(alive)
    # A send can succeed into a socket the server already closed; ask the sockets themselves.
    survivors = sum(1 for s in alive if not closed_by_server(s, 0.05))
    for s in sockets:
        s.close()
    return {"opened": len(sockets), "open_after_15s": survivors, "open_by_second": open_at}


def attack_frame():
    s = connect()
    s.sendall(
        (
            f"GET /ws?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    status = head.split(b"\r\n")[0].decode()
    length = 512 << 20
    start = time.monotonic()
    frame = bytes([0x81, 0x80 | 127]) + length.to_bytes(8, "big") + bytes([1, 2, 3, 4])
    try:
        s.sendall(frame + b"a" * 65536)
    except OSError:
        pass
    # Frames until the close frame: its code, or none if the connection just ended.
    code = None
    buffer = b""
    s.settimeout(5)
    try:
        while code is None:
            chunk = s.recv(65536)
            if not chunk:
                break
            buffer += chunk
            while len(buffer) >= 2:
                size = buffer[1] & 0x7F
                offset = 2
                if size == 126:
                    size, offset = int.from_bytes(buffer[2:4], "big"), 4
                elif size == 127:
                    size, offset = int.from_bytes(buffer[2:10], "big"), 10
                if len(buffer) < offset + size:
                    break
                if buffer[0] & 0x0F == 8:
                    code = int.from_bytes(buffer[offset : offset + 2], "big")
                buffer = buffer[offset + size :]
    except OSError:
        pass
    closed = closed_by_server(s, 5)
    s.close()
    return {"upgrade": status, "close_code": code, "closed": closed, "seconds": time.monotonic() - start}


watch = Watch()
rss_before = rss_kb()
watch.start()
time.sleep(1)
results = {}
chosen = sys.argv[3].split(",") if len(sys.argv) > 3 else ["header", "idle", "slowloris", "frame"]
attacks = {"header": attack_header, "idle": attack_idle, "slowloris": attack_slowloris, "frame": attack_frame}
for name in chosen:
    results[name] = attacks[name]()
# And afterwards: the page still answers.
time.sleep(3)
watch.stop.set()
watch.join()
results.update(
    {
        "page_fetches": watch.fetches,
        "page_slowest_s": watch.slowest,
        "page_failures": watch.failures[:10],
        "page_failure_count": len(watch.failures),
        "rss_before_kb": rss_before,
        "rss_max_kb": watch.rss_max,
        "rss_after_kb": rss_kb(),
    }
)
print(json.dumps(results))
