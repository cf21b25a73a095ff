"""A small Python service whose errors carry no codes, reporting through the real sentry-python SDK.

errtriage's end-to-end tests run it from its folder, the service's root, which the SDK takes for
the project's (its frames are then `in_app`), with the pinned SDK from requirements.txt (in .venv),
two ways:

  python python_shop.py --dsn DSN --manifest FILE   everything to errtriage serve over HTTP
  python python_shop.py --out DIR                   every envelope as the SDK serialises it, in
                                                    DIR/events.envelope (an in-memory transport),
                                                    and DIR/manifest.json

With --no-source the SDK sends no source lines (`include_source_context=False`), as where a
scrubber or a deployment without sources leaves them out: errtriage reads them from a checkout.

What it sends, each distinct failure three times with per-event data in its messages:
  - exceptions without codes (pyshop/): the same type and text raised at two places, free text
    and words that change with the data, a KeyError's quoted key, a wrapper quoting the JSON
    decoder's message (`raise … from e`), a UnicodeDecodeError and a ZeroDivisionError from the
    standard library, an AttributeError, an ExceptionGroup, an error raised while handling another;
  - log records through the default logging integration: `error` with params, `critical`
    (level fatal) and `exception` (a log record with its exception);
  - `capture_message` with an f-string, and with free text while `attach_stacktrace` is on.

Each exception event also carries what a service sets around a failure, for the tests of
events kept whole: a tag (`shard`), a breadcrumb before it, and an extra whose name marks a
secret (`api_token`, which errtriage's scrubber filters; the SDK's own does not know that name).

The failures of `fresh()` quote words made for each run (tenants, payment methods, coupon codes,
order ids in every form): grouping must learn which words vary from the events alone. `--reverse`
fails in the opposite order.

The manifest names each event's distinct failure (its group) and its level.
"""

import argparse
import json
import logging
import random
import string
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sentry_sdk  # noqa: E402
from sentry_sdk.transport import Transport  # noqa: E402

from pyshop import audit, billing, catalog, imports, payments, profile  # noqa: E402


class FileTransport(Transport):
    """Keeps every envelope as the SDK would POST it (before compression)."""

    path = None

    def capture_envelope(self, envelope):
        with open(FileTransport.path, "ab") as f:
            f.write(envelope.serialize())


events = []


def sent(group, before):
    """Records the event the SDK sent since `before` (its last event id)."""
    event_id = sentry_sdk.last_event_id()
    assert event_id and event_id != before, group
    events.append({"event_id": event_id, "group": group})


def fail(group, action, reverse=False):
    for n in (2, 1, 0) if reverse else range(3):
        sentry_sdk.set_user({"id": f"user-{n}"})
        sentry_sdk.set_tag("shard", str(n + 7))
        sentry_sdk.set_extra("api_token", f"PLANTED-SDK-TOKEN-{n}")
        sentry_sdk.add_breadcrumb(category="shop", message=f"{group} attempt {n}", level="info")
        before = sentry_sdk.last_event_id()
        try:
            action(n)
        except Exception:
            sentry_sdk.capture_exception()
        else:
            raise AssertionError(f"{group} did not fail")
        sent(group, before)


def log(group, action, reverse=False):
    for n in (2, 1, 0) if reverse else range(3):
        sentry_sdk.set_user({"id": f"user-{n}"})
        before = sentry_sdk.last_event_id()
        action(n)
        sent(group, before)


def distinct(n, gen):
    """n different values of gen()."""
    out = []
    while len(out) < n:
        value = gen()
        if value not in out:
            out.append(value)
    return out


def word(low, high):
    return "".join(random.choice(string.ascii_lowercase) for _ in range(random.randint(low, high)))


def order_id(kind):
    """An order named in one of the forms shops use (kind 0 to 3): a number, hex, a UUID, a prefixed code."""
    return [
        lambda: str(random.randint(1000, 99999999)),
        lambda: uuid.uuid4().hex[:random.randint(8, 16)],
        lambda: str(uuid.uuid4()),
        lambda: "ord_" + word(6, 10),
    ][kind]()


def orders_in_three_forms():
    """Three orders, each in another of the four forms, in an order of the run's."""
    return [order_id(kind) for kind in random.sample(range(4), 3)]


def fresh():
    """Failures whose words are made for this run."""
    orders, tenants = orders_in_three_forms() + orders_in_three_forms(), distinct(6, lambda: word(4, 9))
    methods = distinct(3, lambda: random.choice(["card", "paypal", "sepa", "klarna", "ideal", "giropay"]))
    codes = distinct(6, lambda: random.choice([word(3, 6).upper() + str(random.randint(10, 99)), word(5, 8).upper(), word(3, 6)]))
    return [
        (fail, "two-paths-capture", lambda n: (payments.checkout if n % 2 == 0 else payments.retry_job)(orders[n], methods[n])),
        (fail, "order-lookup", lambda n: catalog.order(orders[3 + n])),
        (log, "log-coupon-critical", lambda n: payments.coupon_rejected(codes[n], tenants[n], logging.CRITICAL)),
        (log, "log-coupon-error", lambda n: payments.coupon_rejected(codes[3 + n], tenants[3 + n], logging.ERROR)),
        (log, "message-tenant-quota", lambda n: audit.over_quota(tenants[3 + n])),
    ]


def init(args, **options):
    common = dict(release="pyshop@2.0.0", environment="production", include_source_context=not args.no_source, **options)
    if args.out:
        sentry_sdk.init(dsn="http://public@127.0.0.1:9/1", transport=FileTransport, **common)
    else:
        sentry_sdk.init(dsn=args.dsn, **common)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsn")
    parser.add_argument("--out")
    parser.add_argument("--manifest")
    parser.add_argument("--no-source", action="store_true")
    parser.add_argument("--reverse", action="store_true")
    args = parser.parse_args()
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        FileTransport.path = Path(args.out) / "events.envelope"
        FileTransport.path.write_bytes(b"")
    manifest = Path(args.manifest) if args.manifest else Path(args.out) / "manifest.json"
    # The records go to Sentry; nothing to print (Python's last-resort handler would).
    logging.getLogger().addHandler(logging.NullHandler())

    init(args)
    steps = [
        (fail, "value-billing", lambda n: billing.validate(10 + n)),
        (fail, "value-profile", lambda n: profile.validate(["ann", "bob", "cy"][n])),
        (fail, "free-text-name", lambda n: profile.rename(["Bobby Tables", "ann marie", "x"][n])),
        (fail, "changing-words", lambda n: catalog.find(["coupon", "voucher", "gift card"][n], ["SPRING", "vip", "welcome back"][n])),
        (fail, "key-setting", lambda n: catalog.setting(["theme_dark", "locale", "font size"][n])),
        (fail, "wrapped-json", lambda n: imports.import_feed(["{oops", "[1, 2,", "{\"a\": nul}"][n])),
        (fail, "unicode-upload", lambda n: imports.decode_upload(bytes([0xFF - n, 0x41]))),
        (fail, "zero-division", lambda n: billing.split_payment(100 + n, 0)),
        (fail, "attribute-price", lambda n: catalog.price(None)),
        (fail, "exception-group", lambda n: imports.sync([f"db-{n}", f"cache-{n + 1}"])),
        (fail, "context-cache", lambda n: imports.cached({}, f"product:{n}")),
        (log, "log-payment-failed", lambda n: payments.charge_failed(f"pay_{n}x{n}", 4000 + n)),
        (log, "log-provider-down", lambda n: payments.provider_down(["Stripe", "Adyen", "PayPal"][n])),
        (log, "log-refund-exception", lambda n: payments.refund(f"r-{n}")),
        (log, "message-order-stuck", lambda n: audit.order_stuck(8100 + n, f"buyer{n}@example.com", 30 + n)),
    ] + fresh()
    for step, group, action in reversed(steps) if args.reverse else steps:
        step(group, action, reverse=args.reverse)
        # The HTTP transport's queue holds 100 envelopes: let it drain.
        sentry_sdk.flush()
    init(args, attach_stacktrace=True)
    log("message-plan-changed", lambda n: audit.plan_changed(["Ann Lee", "bob", "Cy Young"][n], ["pro", "team", "free"][n]),
        reverse=args.reverse)
    sentry_sdk.flush()
    manifest.write_text(json.dumps({"sdk": f"sentry.python {sentry_sdk.VERSION}", "events": events}, indent=2) + "\n")
    print(f"sentry-sdk {sentry_sdk.VERSION}: {len(events)} events")


if __name__ == "__main__":
    main()
