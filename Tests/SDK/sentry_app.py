"""Fixture generator: report layered errors through the real sentry-python SDK.

errtriage's end-to-end tests run this (with the pinned SDK from
requirements.txt) and ingest what it writes, so the importer is checked against
payloads exactly as the official SDK serialises them instead of hand-written
JSON. Nothing goes over the network: an in-memory transport keeps every
envelope.

Usage: python sentry_app.py OUTDIR

Writes to OUTDIR:
  events.ndjson          one `event` item payload per line, bytes as serialised
                         (the >1 MiB "big" event comes first)
  envelopes.envelope     every envelope as the SDK would POST it, concatenated
                         (big event excluded); envelopes.envelope.gz: the same, gzip'd
  manifest.json          sdk_version, expected group and handled flag per event_id,
                         number of session items

Every scenario raises a chain outermost-first UserError -> LogicError ->
APIError -> NetworkError (root cause) several times, with per-event data
(ids, times, durations, paths, ...) in the messages that grouping must ignore.
"""

import contextlib
import gzip
import io
import json
import random
import sys
import uuid
from pathlib import Path

import sentry_sdk
from sentry_sdk.integrations.excepthook import ExcepthookIntegration
from sentry_sdk.transport import Transport


class UserError(Exception): pass
class LogicError(Exception): pass
class APIError(Exception): pass
class NetworkError(Exception): pass


class MemoryTransport(Transport):
    """Keeps every envelope instead of sending it."""

    envelopes = []

    def capture_envelope(self, envelope):
        MemoryTransport.envelopes.append(envelope)


rng = random.Random(20261117)  # per-event data is reproducible; event ids are not
manifest = []  # [{"event_id", "group", "handled"}] in capture order


def req(): return f"req-{rng.getrandbits(24):06x}"
def ts(): return f"2026-11-{rng.randint(10, 28)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
def secs(): return f"{rng.uniform(5, 60):.1f}"
def uid(): return rng.randint(1, 999)
def hexaddr(): return f"0x{rng.getrandbits(16):04x}"
def uuid4(): return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def raise_chain(links):
    """links: [(cls, message, errno|None)] outermost first; raises links[0] from links[1] from ..."""
    cls, message, errno = links[0]
    exc = cls(message)
    if errno is not None:
        exc.errno = errno
    if len(links) == 1:
        raise exc
    try:
        raise_chain(links[1:])
    except Exception as cause:
        raise exc from cause


def event_ids_since(start):
    return [env.headers["event_id"] for env in MemoryTransport.envelopes[start:]
            for item in env.items if item.type == "event"]


def report(group, make, n, handled=True):
    """Raise `make(n)` (a link list or a callable that raises) and report it handled or via sys.excepthook."""
    start = len(MemoryTransport.envelopes)
    sentry_sdk.set_user({"id": f"user-{n}"})
    try:
        make(n) if callable(make) else raise_chain(make)
    except BaseException:
        if handled:
            sentry_sdk.capture_exception()
        else:  # unhandled path: the SDK's excepthook, then Python's default printer (silenced)
            with contextlib.redirect_stderr(io.StringIO()):
                sys.excepthook(*sys.exc_info())
    ids = event_ids_since(start)
    assert len(ids) == 1, (group, ids)
    manifest.append({"event_id": ids[0], "group": group, "handled": handled})


def errno_chain(root_errno, u):
    return [(UserError, f"connectionIssue: shown to user {u} at {ts()}", 14),
            (LogicError, f"loginFailed for 'user{u}@example.com' after {secs()}s", 43),
            (APIError, f"getTokenFailed: request {req()} status 0 ({hexaddr()})", 7),
            (NetworkError, f"socket error on /var/app/cache/u{u}.json trace {uuid4()}", root_errno)]


def msg_chain(root, api_code=7):
    u = uid()
    return [(UserError, f"[14] connectionIssue: shown {ts()} on login", None),
            (LogicError, f"[43] loginFailed at {ts()}", None),
            (APIError, f"[{api_code}] getTokenFailed for user {u}", None),
            (NetworkError, root, None)]


def upper_nocode(root):
    u = uid()
    return [(UserError, f"could not sign in, shown at {ts()}", None),
            (LogicError, f"login failed for user {u}", None),
            (APIError, f"token request {req()} failed for 'user{u}@example.com'", None),
            (NetworkError, root, None)]


def payment_chain(n):
    if n % 2:
        return [(LogicError, f"[77] paymentDeclined for order {uuid4()}", None),
                (APIError, f"[402] chargeFailed: request {req()} at {ts()}", None)]
    return [(APIError, f"[502] chargeFailed for order {uuid4()}", None),
            (NetworkError, f"[61] connectionRefused: pay-{uid()}.example.com after {secs()}s", None)]


def group_pair():
    try:
        raise_chain([(APIError, f"[7] getTokenFailed for request {req()}", None),
                     (NetworkError, f"[8] timeout: request {req()} took {secs()}s", None)])
    except APIError as e:
        first = e
    return ExceptionGroup("batch failed", [first, LogicError(f"[52] validationFailed for order {uuid4()}")])


def raise_group(n):
    raise group_pair()


def raise_logic_from_group(n):
    try:
        raise group_pair()
    except ExceptionGroup as g:
        raise LogicError(f"[43] loginFailed at {ts()} for batch {uuid4()}") from g


def scenarios():
    # errno-timeout: codes only as `errno` attributes (mechanism.meta.errno.number); root errno 110
    for n in range(4): report("errno-timeout", errno_chain(110, uid()), n)
    # errno-refused: identical, except the root's errno is 111
    for n in range(3): report("errno-refused", errno_chain(111, uid()), n)
    # msg-timeout: codes only as a leading "[N]" in messages; root [8] timeout
    for n in range(5): report("msg-timeout", msg_chain(f"[8] timeout: request {req()} took {secs()}s"), n)
    # msg-notconnected: differs from msg-timeout only in the root's code
    for n in range(3): report("msg-notconnected", msg_chain(f"[29] notConnected: request {req()} took {secs()}s"), n)
    # msg-middle: differs from msg-timeout only in the API link's code ([9]); reported inside a session
    sentry_sdk.start_session()
    for n in range(3): report("msg-middle", msg_chain(f"[8] timeout: request {req()} took {secs()}s", api_code=9), n)
    sentry_sdk.end_session()
    # apple-style: root message in NSError's "(domain error N.)" form
    for n in range(3): report("apple-style", msg_chain("The operation couldn't be completed. (kCFErrorDomainCFNetwork error 2.)"), n)
    # nocode-timeout / nocode-dns: no codes anywhere, only words + per-event data
    for n in range(4): report("nocode-timeout", upper_nocode(f"timed out after {secs()}s calling /api/v2/users/{uid()}"), n)
    for n in range(4): report("nocode-dns", upper_nocode(f"could not resolve host api-{uid()}.example.com"), n)
    # handled-unhandled: the same chain captured handled twice, then once via sys.excepthook
    for n in range(3): report("handled-unhandled", errno_chain(104, uid()), n, handled=n < 2)
    # exception-group: ExceptionGroup(APIError from NetworkError, LogicError)
    for n in range(3): report("exception-group", raise_group, n)
    # logic-from-group: LogicError raised from such an ExceptionGroup
    for n in range(3): report("logic-from-group", raise_logic_from_group, n)
    # fingerprint: two unrelated chains forced into one issue by a scope fingerprint
    for n in range(4):
        with sentry_sdk.new_scope() as scope:
            scope.fingerprint = ["payment-provider-down"]
            report("fingerprint", payment_chain(n), n)


def raise_big(n):
    blob = b"x" * (3 * 1024 * 1024)  # frame local, serialised in the frame's `vars`
    raise_chain(msg_chain(f"[8] timeout: upload of {len(blob)} bytes took {secs()}s"))


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    sentry_sdk.init(dsn="http://public@127.0.0.1:9/1", transport=MemoryTransport,
                    release="shop@1.4.0", environment="production", default_integrations=False,
                    integrations=[ExcepthookIntegration()], auto_session_tracking=False)
    scenarios()
    report("big", raise_big, 0)  # big: a handled event whose payload exceeds 1 MiB
    sentry_sdk.flush()

    big_id = manifest[-1]["event_id"]
    events, envelopes, sessions = [], [], 0
    for env in MemoryTransport.envelopes:
        payloads = [item.payload.get_bytes() for item in env.items if item.type == "event"]
        sessions += sum(item.type == "session" for item in env.items)
        if env.headers.get("event_id") == big_id:
            assert len(payloads[0]) > 1024 * 1024, len(payloads[0])
            events.insert(0, payloads[0])
        else:
            events += payloads
            envelopes.append(env.serialize())
    assert all(b"\n" not in p for p in events)
    (out / "events.ndjson").write_bytes(b"".join(p + b"\n" for p in events))
    (out / "envelopes.envelope").write_bytes(b"".join(envelopes))
    (out / "envelopes.envelope.gz").write_bytes(gzip.compress(b"".join(envelopes), mtime=0))
    (out / "manifest.json").write_text(json.dumps(
        {"sdk_version": sentry_sdk.VERSION, "events": manifest, "sessions": sessions}, indent=2) + "\n")
    print(f"sentry-sdk {sentry_sdk.VERSION}: {len(events)} events, {len(envelopes)} envelopes, "
          f"{sessions} session items -> {out}")


if __name__ == "__main__":
    main()
