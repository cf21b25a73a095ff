"""A small app that reports its errors to `errtriage serve` through the real sentry-python SDK.

errtriage's end-to-end tests start `errtriage serve`, create a key (`errtriage key add`), and
run this with its DSN: everything goes over HTTP exactly as the SDK sends it (its own
transport, its own compression: br with the brotli module installed, else gzip).

Usage: python serve_app.py DSN OUTFILE [br|gzip]

Sends:
  - a layered failure (UserError <- LogicError <- APIError <- NetworkError, `raise ... from ...`)
    captured handled, three times with different per-event data in the messages;
  - the same chain once more, uncaught, through sys.excepthook (the SDK marks it unhandled);
  - another failure (a different root cause) once, handled;
  - an application session of the scope's user (release health);
  - a `user_report` envelope for the first event (the Python SDK has no call for one: it is
    built with the SDK's Envelope/Item classes and sent through the client's transport).

Writes OUTFILE: JSON with the event ids per group, the user report's event id and words.
"""

import json
import sys

import sentry_sdk
from sentry_sdk.envelope import Envelope, Item, PayloadRef


class UserError(Exception): pass
class LogicError(Exception): pass
class APIError(Exception): pass
class NetworkError(Exception): pass


def login(order, root="timeout"):
    try:
        try:
            try:
                if root == "timeout":
                    raise NetworkError(f"timeout: request {order} took {20 + order}.5 s")
                raise NetworkError(f"connectionRefused: host api-{order}.example.com")
            except NetworkError as e:
                raise APIError(f"getTokenFailed: token request {order} failed") from e
        except APIError as e:
            raise LogicError("loginFailed: could not log in") from e
    except LogicError as e:
        raise UserError("connectionIssue: check your connection") from e


def main():
    dsn, out = sys.argv[1], sys.argv[2]
    algo = sys.argv[3] if len(sys.argv) > 3 else "br"
    sentry_sdk.init(
        dsn=dsn,
        release="shop@2.1.0",
        environment="production",
        auto_session_tracking=True,
        default_integrations=True,
        _experiments={"transport_compression_algo": algo},
    )
    sentry_sdk.set_user({"id": "user-42"})
    sent = {"login": [], "refused": [], "unhandled": []}

    sentry_sdk.get_isolation_scope().start_session()
    for order in range(3):
        try:
            login(order)
        except UserError:
            sent["login"].append(sentry_sdk.capture_exception())
    try:
        login(7, root="refused")
    except UserError:
        sent["refused"].append(sentry_sdk.capture_exception())
    # Uncaught: what the excepthook integration reports, handled: false.
    try:
        login(9)
    except UserError:
        before = sentry_sdk.last_event_id()
        sys.excepthook(*sys.exc_info())
        after = sentry_sdk.last_event_id()
        if after != before:
            sent["unhandled"].append(after)
    sentry_sdk.get_isolation_scope().end_session()

    report_for = sent["login"][0]
    words = "The app said check your connection, but my wifi works."
    envelope = Envelope(headers={"event_id": report_for})
    envelope.add_item(Item(payload=PayloadRef(json={
        "event_id": report_for, "name": "Ada", "email": "ada@example.com", "comments": words,
    }), type="user_report"))
    sentry_sdk.get_client().transport.capture_envelope(envelope)

    sentry_sdk.flush(timeout=10)
    with open(out, "w") as f:
        json.dump({"events": sent, "user_report": {"event_id": report_for, "comments": words},
                   "sdk_version": sentry_sdk.VERSION}, f)


if __name__ == "__main__":
    main()
