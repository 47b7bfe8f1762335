"""Signals other apps connect to; accounts never imports them.

`credentials_changed(user)`: sent after the commit of a password change or reset, and of an account's
deletion. Every session and API token of the user has already stopped working then (the session's auth
hash and the token rows); a receiver closes what outlives a request, such as open WebSockets.

`account_erasing(user)`: sent inside the deletion's transaction, before the row is anonymised, so the apps
above accounts remove what they keep about the person (their receivers run in that same transaction:
a failing one undoes the deletion).
"""

from __future__ import annotations

from django.dispatch import Signal

credentials_changed = Signal()  # sender: the User class; argument: user
account_erasing = Signal()  # sender: the User class; argument: user
