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
