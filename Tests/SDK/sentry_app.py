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
                         envelopes written, session items and their users per
                         version and day, aggregate (`sessions`) items, and the
                         user reports sent

Release health: application sessions (`start_session`/`end_session`, each of
the scope's user, one sent again as an update) and request-mode sessions, which
the SDK aggregates into a `sessions` item without users. User feedback: the
Python SDK has no call for it (no `capture_feedback` in 2.x), so the app writes
a `user_report` envelope for one event with the SDK's own `Envelope`/`Item`
classes, through the client's transport, as `capture_user_feedback` did.

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
from datetime import datetime, timezone
from pathlib import Path

import sentry_sdk
from sentry_sdk.envelope import Envelope, Item, PayloadRef
from sentry_sdk.integrations.excepthook import ExcepthookIntegration
from sentry_sdk.sessions import track_session
from sentry_sdk.transport import Transport
from sentry_sdk.utils import format_timestamp


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
user_reports = []  # [{"event_id", "group", "comments"}]


def req(): return f"req-{rng.getrandbits(24):06x}"
def ts(): return f"2026-11-{rng.randint(10, 28)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
def secs(): return f"{rng.uniform(5, 60):.1f}"
def uid(): return rng.randint(1, 999)
def hexaddr(): return f"0x{rng.getrandbits(16):04x}"
def uuid4(): return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def raise_chain(links):
    """links: [(cls, message, errno|None)] outermost first, the root cause possibly a function that
    raises it; raises links[0] from links[1] from ..."""
    if callable(links[0]):
        links[0]()
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
            root]


def call_users_api():
    """The root of nocode-timeout, raised where the app calls the API (not where nocode-dns's is)."""
    raise NetworkError(f"timed out after {secs()}s calling /api/v2/users/{uid()}")


def resolve_api_host():
    """The root of nocode-dns, raised where the app resolves the host."""
    raise NetworkError(f"could not resolve host api-{uid()}.example.com")


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
    # nocode-timeout / nocode-dns: no codes anywhere, only words + per-event data; the roots are
    # raised at two places (the upper links at one: the same place, so the same links)
    for n in range(4): report("nocode-timeout", upper_nocode(call_users_api), n)
    for n in range(4): report("nocode-dns", upper_nocode(resolve_api_host), n)
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


def release_health():
    """Release health as apps send it: a session per user, and server-mode request sessions."""
    # the users who met errors (user-0 … user-4) and five who did not
    for n, user in enumerate([f"user-{i}" for i in range(5)] + [f"happy-{i}" for i in range(5)]):
        sentry_sdk.set_user({"id": user})
        scope = sentry_sdk.get_isolation_scope()
        scope.start_session()
        if n == 0:  # an update of a running session, as SDKs send at its start: the same sid again
            sentry_sdk.get_client().capture_session(scope._session)
        scope.end_session()
    for _ in range(2):  # request mode: aggregated per minute, with no user
        with sentry_sdk.isolation_scope() as scope:
            with track_session(scope, session_mode="request"):
                pass


def send_user_report(group, comments):
    """A `user_report` envelope about the first event of `group`, as `capture_user_feedback` built it."""
    event_id = next(e["event_id"] for e in manifest if e["group"] == group)
    report = {"event_id": event_id, "name": "Jane Roe", "email": "jane@example.com", "comments": comments}
    envelope = Envelope(headers={"event_id": event_id, "sent_at": format_timestamp(datetime.now(timezone.utc))},
                        items=[Item(payload=PayloadRef(json=report), type="user_report")])
    sentry_sdk.get_client().transport.capture_envelope(envelope)
    user_reports.append({"event_id": event_id, "group": group, "comments": comments})


def raise_big(n):
    blob = b"x" * (3 * 1024 * 1024)  # frame local, serialised in the frame's `vars`
    raise_chain(msg_chain(f"[8] timeout: upload of {len(blob)} bytes took {secs()}s"))


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    sentry_sdk.init(dsn="http://public@127.0.0.1:9/1", transport=MemoryTransport,
                    release="shop@1.4.0", environment="production", default_integrations=False,
                    integrations=[ExcepthookIntegration()], auto_session_tracking=True)
    scenarios()
    release_health()
    # hostile text stays inert in every output: an escape sequence in the user's words
    send_user_report("errno-timeout", "Paying froze again and the app lost my basket \x1b[2J")
    report("big", raise_big, 0)  # big: a handled event whose payload exceeds 1 MiB
    sentry_sdk.flush()

    big_id = manifest[-1]["event_id"]
    events, envelopes, sessions, aggregates, session_users, session_ids = [], [], 0, 0, set(), set()
    for env in MemoryTransport.envelopes:
        payloads = [item.payload.get_bytes() for item in env.items if item.type == "event"]
        for item in env.items:
            if item.type == "session":
                sessions += 1
                session = json.loads(item.payload.get_bytes())
                session_users.add((session["attrs"]["release"], session.get("did", session["sid"]), session["started"][:10]))
                session_ids.add(session["sid"])
            aggregates += item.type == "sessions"
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
    assert aggregates > 0 and len(session_users) >= 3, (aggregates, session_users)
    (out / "manifest.json").write_text(json.dumps(
        {"sdk_version": sentry_sdk.VERSION, "events": manifest, "envelopes": len(envelopes), "sessions": sessions,
         "session_ids": len(session_ids), "session_user_days": len(session_users), "aggregates": aggregates, "user_reports": user_reports}, indent=2) + "\n")
    print(f"sentry-sdk {sentry_sdk.VERSION}: {len(events)} events, {len(envelopes)} envelopes, "
          f"{sessions} session items, {aggregates} aggregates, {len(user_reports)} user reports -> {out}")


if __name__ == "__main__":
    main()
