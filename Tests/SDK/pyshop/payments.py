"""Payments: log records through the logging module, as the SDK's logging integration sends them."""

import logging

log = logging.getLogger("payments")


def charge_failed(payment, order):
    log.error("Payment %s failed for order %d", payment, order)


def provider_down(name):
    log.critical("Payment provider %s is down", name)


def refund(refund_id):
    try:
        raise TimeoutError(f"refund {refund_id} timed out")
    except TimeoutError:
        log.exception("Refund %s failed", refund_id)


class CaptureFailed(Exception):
    pass


def capture(order, method):
    # Raised here however the caller got here: a checkout, or a worker retrying it.
    raise CaptureFailed(f"capture of order {order} with {method} failed")


def checkout(order, method):
    return capture(order, method)


def retry_job(order, method):
    return capture(order, method)


def coupon_rejected(code, user, level):
    log.log(level, "Coupon %s rejected for %s", code, user)
