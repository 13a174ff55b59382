"""Gateway v10 over a WebSocket at ``/gateway``: HELLO, heartbeats, IDENTIFY → READY and
GUILD_CREATE, RESUME with replay, GUILD_MEMBERS_CHUNK, and dispatches filtered by intents.

Shards as on Discord (https://discord.com/developers/docs/events/gateway#sharding): an IDENTIFY
with ``shard: [id, count]`` gets READY and GUILD_CREATE for the guilds with ``(guild_id >> 22) %
count == id`` only, and every later event of a guild goes to the sessions of its shard; events of
no guild (DMs) go to shard 0.

Frames are plain JSON text (discord.py only decompresses binary frames, so asking for
``compress=zlib-stream`` and getting text is fine).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson
from aiohttp import WSMsgType, web

from .contract import gateway_problems
from .limits import JSON
from .state import State

HEARTBEAT_INTERVAL_MS = 41_250
HEARTBEAT_ACK_SECONDS = 0.05
BACKLOG = 2_000
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
_EVENT_INTENTS = {
    "GUILD_CREATE": INTENT_GUILDS,
    "CHANNEL_CREATE": INTENT_GUILDS,
    "CHANNEL_DELETE": INTENT_GUILDS,
    "THREAD_CREATE": INTENT_GUILDS,
    "THREAD_UPDATE": INTENT_GUILDS,
    "THREAD_DELETE": INTENT_GUILDS,
    "GUILD_ROLE_CREATE": INTENT_GUILDS,
    "GUILD_MEMBER_ADD": INTENT_GUILD_MEMBERS,
    "GUILD_MEMBER_UPDATE": INTENT_GUILD_MEMBERS,
}


class Connection:
    """One client WebSocket; frames go out in order through a queue, and ``sent`` is called with
    each frame once it is written to the socket."""

    def __init__(self, ws: web.WebSocketResponse, sent: Callable[[JSON], None] = lambda frame: None) -> None:
        self.ws = ws
        self.session: Session | None = None
        self._sent = sent
        self._queue: asyncio.Queue[tuple[str, JSON] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, frame: JSON) -> None:
        """Queue a frame (``{"op", "d", "s"?, "t"?}``)."""
        self._queue.put_nowait((orjson.dumps(frame).decode(), frame))

    async def _write(self) -> None:
        while (item := await self._queue.get()) is not None:
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(item[0])
            except (ConnectionError, RuntimeError):
                return
            self._sent(item[1])

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        """Flush queued frames, then close the socket."""
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 1.0)
        await self.ws.close(code=code, message=message)


@dataclass(eq=False)
class Session:
    """A gateway session: sequence numbers and a replay buffer survive reconnects; ``shard`` is
    ``(id, count)`` from IDENTIFY (``(0, 1)``: every guild)."""

    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    backlog: deque[tuple[int, JSON]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    connection: Connection | None = None

    def dispatch(self, event: str, data: JSON) -> None:
        """Number, buffer and (if connected) send one DISPATCH."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.backlog.append((self.seq, frame))
        if self.connection is not None:
            self.connection.send(frame)

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of ``guild_id`` (None: of no guild, which
        go to shard 0)."""
        shard_id, count = self.shard
        return shard_id == 0 if guild_id is None else (guild_id >> 22) % count == shard_id


class Gateway:
    """The gateway endpoint and the dispatcher `State` calls.

    Attributes:
        identifies: IDENTIFYs accepted so far; ``resumes``: RESUMEs accepted.
        frames_received: every op the client sent, as ``(op, d)``.
        check_payloads: check the objects inside every event sent against Discord's spec
            (`contract.gateway_problems`), failing the test on a mismatch (`State.fail`; the test
            harness turns it on).
    """

    def __init__(self, state: State, resume_url: Callable[[], str]) -> None:
        self.state = state
        self._resume_url = resume_url
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identifies = 0
        self.resumes = 0
        self.frames_received: list[tuple[object, object]] = []
        self.check_payloads = False
        state.dispatch = self.dispatch

    def dispatch(self, event: str, data: JSON) -> None:
        """Send an event to every session of the event's guild's shard whose intents cover it."""
        guild = (
            data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else data.get("guild_id")
        )
        guild_id = int(guild) if guild is not None else None
        for session in self.sessions.values():
            if not session.covers(guild_id):
                continue
            payload = self._filter(session, event, data)
            if payload is not None:
                session.dispatch(event, payload)

    def _delivered(self, frame: JSON) -> None:
        """Note when an interaction first reached the bot (``InteractionRecord.delivered_at``);
        check the event's objects when `check_payloads`."""
        if self.check_payloads and frame.get("op") == 0:
            found = gateway_problems(str(frame.get("t")), frame.get("d"))
            if found:
                self.state.fail(f"gateway {frame.get('t')} carried what Discord does not: {found}")
        if frame.get("t") == "INTERACTION_CREATE":
            record = self.state.interactions.get(int(frame["d"]["id"]))
            if record is not None and record.delivered_at is None:
                record.delivered_at = self.state.clock.now()

    def _filter(self, session: Session, event: str, data: JSON) -> JSON | None:
        """The payload this session gets, or None if its intents exclude the event."""
        if event.startswith("MESSAGE_"):
            need = INTENT_GUILD_MESSAGES if "guild_id" in data else INTENT_DIRECT_MESSAGES
            if not session.intents & need:
                return None
            author = data.get("author", {}).get("id")
            mentioned = any(u["id"] == str(self.state.bot.id) for u in data.get("mentions", []))
            private = "guild_id" not in data or author == str(self.state.bot.id) or mentioned
            if "content" in data and not (session.intents & INTENT_MESSAGE_CONTENT or private):
                return {**data, "content": "", "embeds": [], "components": [], "attachments": []}
            return data
        need = _EVENT_INTENTS.get(event, 0)
        return data if not need or session.intents & need else None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """``GET /gateway`` upgraded to a WebSocket."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, self._delivered)
        self.connections.add(connection)
        connection.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, orjson.loads(message.data))
        finally:
            self.connections.discard(connection)
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            await connection.close()
        return ws

    async def _receive(self, connection: Connection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        self.frames_received.append((op, data))
        if op == 1:
            # Acknowledged after a network-like pause: discord.py's heartbeat thread notes when it
            # sent a heartbeat only once the loop has sent it, and an instant ACK would be measured
            # against the previous one ("Can't keep up, websocket is 41.3s behind").
            asyncio.get_running_loop().call_later(
                HEARTBEAT_ACK_SECONDS, connection.send, {"op": 11, "d": None, "s": None, "t": None}
            )
        elif op == 2:
            await self._identify(connection, data or {})
        elif op == 6:
            self._resume(connection, data or {})
        elif op == 8 and connection.session is not None:
            self._chunk(connection.session, data or {})

    async def _identify(self, connection: Connection, data: JSON) -> None:
        if data.get("token") != self.state.token:
            await connection.close(4004, b"Authentication failed.")
            return
        shard = data.get("shard", [0, 1])
        if not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(type(n) is int for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await connection.close(4010, b"Invalid shard.")
            return
        for stale in [s for s in self.sessions.values() if s.connection is None]:
            del self.sessions[stale.id]
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), (shard[0], shard[1]))
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        state = self.state
        guilds = [g for g in state.guilds if session.covers(g)]
        ready = {
            "v": 10,
            "user": state.me_payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._resume_url(),
            "application": {"id": str(state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "shard": list(session.shard),
        }
        session.dispatch("READY", ready)
        # As on Discord: without the presences intent GUILD_CREATE lists only the bot; a client
        # with the members intent then asks for the rest (op 8 → GUILD_MEMBERS_CHUNK).
        members = bool(session.intents & INTENT_GUILD_PRESENCES)
        for guild_id in guilds:
            session.dispatch("GUILD_CREATE", state.guild_create_payload(guild_id, members=members))
        self.identifies += 1
        state.changed()

    def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.state.token:
            connection.send({"op": 9, "d": False, "s": None, "t": None})
            return
        if session.connection is not None and session.connection is not connection:
            session.connection.session = None
        session.connection = connection
        connection.session = session
        last = int(data.get("seq") or 0)
        for seq, frame in session.backlog:
            if seq > last:
                connection.send(frame)
        session.dispatch("RESUMED", {})
        self.resumes += 1
        self.state.changed()

    def _chunk(self, session: Session, data: JSON) -> None:
        state = self.state
        guild_id = int(data.get("guild_id") or state.guild_id)
        if guild_id not in state.guilds or not session.covers(guild_id):
            return  # Discord answers nothing for a guild the shard does not serve
        query = str(data.get("query") or "").lower()
        wanted = {int(i) for i in data.get("user_ids") or []}
        members = [
            u
            for u in state.users.values()
            if (not wanted or u.id in wanted) and u.name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk = {
            "guild_id": str(guild_id),
            "members": [state.member_payload(u, guild_id) for u in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(i) for i in wanted - {u.id for u in members}],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes the socket and RESUMEs at
        ``resume_gateway_url``."""
        for connection in list(self.connections):
            connection.send({"op": 7, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        """Close every client socket (code 1001, going away)."""
        for connection in list(self.connections):
            await connection.close(1001)
