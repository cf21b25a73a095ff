"""Billing: checks an amount, and charges orders."""


def validate(amount):
    if amount > 0:
        raise ValueError("invalid input")


def split_payment(total, parts):
    return total / parts
