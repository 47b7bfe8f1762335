"""The channel-layer group of one player's lobby sockets: `user-<id>`.

people.services sends challenge notices to it; the lobby socket (games/socket/consumers.py LobbyConsumer) of a
logged-in player joins it. Kept apart so that socket imports a name, not people's services."""

from __future__ import annotations


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


# The group message a lobby socket forwards to its client as `{"type": "challenge", "challenge": {...}}`.
CHALLENGE_NOTICE = "challenge.notice"
