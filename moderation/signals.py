"""Signals of moderation; moderation never imports a receiver.

`user_banned(user)`: sent after the commit of a `ban`; the account is already inactive, so no new
log-in or token works. A receiver closes what outlives a request (open sockets). The ban also sends
`accounts.signals.credentials_changed` where that signal exists, so the receivers of a password
change close the banned player's sockets too.
"""

from __future__ import annotations

from django.dispatch import Signal

user_banned = Signal()  # sender: ModerationAction; argument: user
