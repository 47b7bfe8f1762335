"""Live tournament sockets (read-only for clients).

`ws/tournaments/<id>/`: the whole tournament (`{"type": "tournament", "tournament": ...}`) on
connect and after every change: registrations, rounds seated, tables ended, standings.
`ws/tournaments/mine/`: the signed-in player's own notices from any page,
`{"type": "seated", "seated": {tournament, name, round, table, url}}` when a round seats them.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.socket.consumers import ReadOnlyConsumer
from live import wire
from tournaments.selectors import tournament_payload_or_none
from tournaments.services import player_group, tournament_group


class _ReadOnly(ReadOnlyConsumer):
    """Read-only like the lobby: `ping` answers `pong`, any other frame `bad_message`."""

    group = ""
    socket_kind = "tournament"

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)


class TournamentConsumer(_ReadOnly):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        payload = await database_sync_to_async(tournament_payload_or_none)(self.tournament_id)
        if payload is None:
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=wire.dumps({"type": "tournament", "tournament": payload}))

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "tournament", "tournament": message["tournament"]}))


class PlayerConsumer(_ReadOnly):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = player_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def tournament_seated(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "seated", "seated": message["seated"]}))
