"""Audit: messages sent with capture_message."""

import sentry_sdk


def order_stuck(order, email, minutes):
    sentry_sdk.capture_message(f"Order {order} for {email} stuck for {minutes} minutes", level="warning")


def plan_changed(name, plan):
    # Free text in the message: only where it was sent from tells these apart.
    sentry_sdk.capture_message(f"Audit: {name} moved to the {plan} plan")


def over_quota(tenant):
    sentry_sdk.capture_message(f"tenant {tenant} over quota")
