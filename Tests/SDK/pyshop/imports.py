"""Imports: wrap what the standard library raises, quoting its message."""

import json


class ImportFailed(Exception):
    pass


class SyncFailed(Exception):
    pass


def import_feed(body):
    try:
        return json.loads(body)
    except json.JSONDecodeError as e:
        raise ImportFailed(f"import of feed failed: {e}") from e


def decode_upload(data):
    return data.decode("utf-8")


def sync(hosts):
    errors = [ConnectionError(f"host {h} unreachable") for h in hosts]
    raise ExceptionGroup(f"sync of {len(hosts)} hosts failed", errors)


def cached(cache, key):
    try:
        return cache[key]
    except KeyError:
        # Raised while handling the KeyError: Python makes that its __context__.
        raise RuntimeError(f"cache miss for {key} during warm-up")
