"""Helpers of the tiny app."""


def shout(text):
    return text.upper() + "!"
