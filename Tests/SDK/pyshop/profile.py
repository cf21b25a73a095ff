"""The profile: the same type and text as billing's check, raised at another place."""


class ValidationError(Exception):
    pass


def validate(name):
    if name:
        raise ValueError("invalid input")


def rename(name):
    # The user's words go into the message as they are: nothing in them looks like data.
    raise ValidationError(f"name {name} is not allowed")
