"""The hostile-traffic probe's loads against `errtriage serve`, for HostileBoundsTests.

Each subcommand runs a bounded load on loopback and prints one JSON object: what the clients
got, /healthz's latencies measured beside the load, and the server's peak memory (VmHWM, read
from /proc/PID/status) where a PID is given. Nothing here retries: every answer is reported.

Usage: python hostile_bounds.py COMMAND PORT [options as JSON]

  compress  {"body": PATH, "encoding": gzip|deflate|br, "path": URL_PATH}
            POSTs the file compressed with the encoding, no key in any header.
  idle      {"idle": N, "trickle": M, "seconds": S, "key": KEY, "project": ID, "source": ADDR}
            N sockets that send nothing and M that trickle a request's head a byte a second,
            from ADDR (a loopback address of its own), kept for S seconds while /healthz is
            timed every 100 ms and a keyed envelope is posted every 200 ms from 127.0.0.1.
  stall     {"key": KEY, "project": ID, "sent": BYTES, "declared": BYTES}
            A request whose body stops after BYTES of the Content-Length it declares: the
            status and reason it gets, and after how long.
  declared  {"key": KEY, "project": ID, "declared": BYTES}
            A request whose head declares a body of BYTES and sends none of it: the answer.
  bombs     {"key": KEY, "project": ID, "count": N, "body": PATH, "encoding": E, "path": URL_PATH, "pid": PID}
            N concurrent POSTs of the file (already encoded) with the key, /healthz timed beside.
"""

import json
import socket
import sys
import threading
import time
import zlib


def now():
    return time.monotonic()


def vm_hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def request(port, raw, timeout=30.0, source=None):
    """Sends raw bytes on a new connection and reads the answer to its end or close."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0) if source else None)
    try:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            if _ and b"content-length:" in head.lower():
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
        return data
    finally:
        s.close()


def status_of(answer):
    line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    parts = line.split(" ")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def body_of(answer):
    return answer.partition(b"\r\n\r\n")[2].decode(errors="replace")


def post(port, path, body, headers=(), timeout=30.0):
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}", "Connection: close"]
    head += list(headers)
    raw = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    return request(port, raw, timeout=timeout)


def auth(key):
    return f"X-Sentry-Auth: Sentry sentry_version=7, sentry_key={key}"


def envelope(event_id):
    event = {"event_id": event_id, "timestamp": "2026-11-24T10:00:00Z", "platform": "python", "level": "error",
             "exception": {"values": [{"type": "NetworkError", "value": "timeout"}, {"type": "APIError", "value": "getTokenFailed"}]}}
    return (json.dumps({"event_id": event_id}) + "\n" + '{"type":"event"}' + "\n" + json.dumps(event) + "\n").encode()


class HealthTimer(threading.Thread):
    """Times /healthz every `every` seconds until stopped."""

    def __init__(self, port, every=0.1):
        super().__init__(daemon=True)
        self.port, self.every = port, every
        self.latencies, self.statuses = [], []
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            asked = now()
            try:
                answer = request(self.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout=10)
                self.statuses.append(status_of(answer))
            except OSError as error:
                self.statuses.append(str(error))
            self.latencies.append(now() - asked)
            self.stopped.wait(self.every)

    def report(self):
        ordered = sorted(self.latencies)
        return {"health_count": len(ordered), "health_ok": sum(1 for s in self.statuses if s == 200),
                "health_max_ms": round(1000 * ordered[-1], 1) if ordered else None,
                "health_p50_ms": round(1000 * ordered[len(ordered) // 2], 1) if ordered else None}


def compress(data, encoding):
    if encoding == "gzip":
        c = zlib.compressobj(6, zlib.DEFLATED, 16 + 15)
        return c.compress(data) + c.flush()
    if encoding == "deflate":
        return zlib.compress(data)
    if encoding == "br":
        import brotli
        return brotli.compress(data)
    raise SystemExit(f"unknown encoding {encoding}")


def cmd_compress(port, o):
    body = compress(open(o["body"], "rb").read(), o["encoding"])
    answer = post(port, o["path"], body, [f"Content-Encoding: {o['encoding']}"])
    return {"status": status_of(answer), "answer": body_of(answer), "sent": len(body)}


def cmd_idle(port, o):
    source = o.get("source", "127.0.0.2")
    sockets, trickling = [], []
    opened = refused = 0
    for n in range(o["idle"] + o["trickle"]):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
            s.setblocking(False)
            sockets.append(s)
            opened += 1
            if n >= o["idle"]:
                trickling.append(s)
        except OSError:
            refused += 1
    head = f"POST /api/{o['project']}/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
    health = HealthTimer(port)
    health.start()
    keyed, keyed_latency = [], []
    deadline = now() + o["seconds"]
    sent_bytes, next_trickle, n = 0, now(), 0
    while now() < deadline:
        if now() >= next_trickle:
            for s in trickling:
                try:
                    s.send(head[sent_bytes % len(head):sent_bytes % len(head) + 1])
                except OSError:
                    pass
            sent_bytes += 1
            next_trickle = now() + 1.0
        asked = now()
        try:
            answer = post(port, f"/api/{o['project']}/envelope/", envelope(f"{0xb0de0000 + n:032x}"), [auth(o["key"])], timeout=10)
            keyed.append(status_of(answer))
        except OSError as error:
            keyed.append(str(error))
        keyed_latency.append(now() - asked)
        n += 1
        time.sleep(0.2)
    health.stopped.set()
    health.join()
    # How many of the load's sockets the server closed meanwhile.
    closed = 0
    for s in sockets:
        try:
            if s.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    result = {"opened": opened, "refused_at_connect": refused, "closed_by_server": closed, "keyed": keyed,
              "keyed_max_ms": round(1000 * max(keyed_latency), 1) if keyed_latency else None}
    result.update(health.report())
    return result


def cmd_stall(port, o):
    s = socket.create_connection(("127.0.0.1", port), timeout=o.get("wait", 60))
    head = (f"POST /api/{o['project']}/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth(o['key'])}\r\n"
            f"Content-Length: {o['declared']}\r\n\r\n").encode()
    started = now()
    s.sendall(head + b"x" * o["sent"])
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and data.endswith(b"\n"):
                break
    except socket.timeout:
        pass
    s.close()
    return {"status": status_of(data), "answer": body_of(data), "seconds": round(now() - started, 2)}


def cmd_declared(port, o):
    s = socket.create_connection(("127.0.0.1", port), timeout=o.get("wait", 10))
    head = (f"POST /api/{o['project']}/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth(o['key'])}\r\n"
            f"Content-Length: {o['declared']}\r\n\r\n").encode()
    started = now()
    s.sendall(head)
    data = b""
    try:
        while b"\r\n\r\n" not in data or not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    s.close()
    return {"status": status_of(data), "answer": body_of(data), "seconds": round(now() - started, 2)}


def cmd_bombs(port, o):
    body = open(o["body"], "rb").read()
    statuses = []
    lock = threading.Lock()

    def one():
        try:
            headers = [auth(o["key"])] + ([f"Content-Encoding: {o['encoding']}"] if o.get("encoding") else [])
            answer = post(port, o["path"], body, headers, timeout=120)
            result = status_of(answer), body_of(answer)
        except OSError as error:
            result = 0, str(error)
        with lock:
            statuses.append(result)

    health = HealthTimer(port)
    health.start()
    threads = [threading.Thread(target=one) for _ in range(o["count"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    health.stopped.set()
    health.join()
    counts = {}
    for status, _ in statuses:
        counts[str(status)] = counts.get(str(status), 0) + 1
    result = {"statuses": counts, "answers": sorted({a[:160] for _, a in statuses})[:6]}
    result.update(health.report())
    if o.get("pid"):
        result["vm_hwm_kib"] = vm_hwm_kib(o["pid"])
    return result


if __name__ == "__main__":
    command, port = sys.argv[1], int(sys.argv[2])
    options = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    print(json.dumps({"compress": cmd_compress, "idle": cmd_idle, "stall": cmd_stall, "declared": cmd_declared,
                      "bombs": cmd_bombs}[command](port, options)))
