"""The arbiter server's routes (ARCHITECTURE.md, "The arbiter server"): each one parses its
request, checks that the caller may make it, makes one application call on the arbiter's thread
and renders what it returns. The rules, the store and what each reader may see are the
application's (``Arbiter``): nothing here folds, decodes or redacts.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.datastructures import ResponseHeader, State
from litestar.middleware import (
    AbstractAuthenticationMiddleware,
    AuthenticationResult,
    DefineMiddleware,
)
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import Stream

from warlog.arbiter.application import Arbiter
from warlog.arbiter.commands import parse_json_object
from warlog.arbiter.exchange import export_line
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.states import no_event
from warlog.domain import rulesets as registry
from warlog.domain.core.errors import ConflictError, InputError, quoted
from warlog.eventstore.records import Record
from warlog.server import schemas as s
from warlog.server.auth import AuthError, Caller, Tokens, issue
from warlog.server.errors import EXCEPTION_HANDLERS, LostRace, StaleHead
from warlog.server.feed import KEEPALIVE_SECONDS, Feeds, live
from warlog.server.headers import (
    HEAD_TAG,
    LIVE_RELATIVES,
    SEQ_DIGITS,
    SEQ_HEADERS,
    head_tag,
    once,
    parse_seq_header,
)
from warlog.server.host import ArbiterHost
from warlog.server.openapi import openapi_config, responses

#: the largest request body the server reads (a command is a few hundred bytes)
MAX_BODY = 1 << 20
JSON_LINES = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"


class Warlog:
    """What every route reaches: the arbiter's thread, the live feeds and the tokens."""

    def __init__(self, host: ArbiterHost, feeds: Feeds, tokens: Tokens, keepalive: float) -> None:
        self.host = host
        self.feeds = feeds
        self.tokens = tokens
        self.keepalive = keepalive


#: how the command reader's refusals begin, and how they read said of a body that is not a command
OF_THE_BODY = (
    ("the command ", "the body "),
    ('a command is a JSON object with a "type", not ', "the body is one JSON object, not "),
    ("command ", "the body "),
)


def said_of_the_body(message: str) -> str:
    """The command reader's refusal ``message``, said of a request body."""
    for command, body in OF_THE_BODY:
        if message.startswith(command):
            message = body + message.removeprefix(command)
            break
    return message.replace("too deeply to be a command", "too deeply to be read")


#: what a body holding half a surrogate pair is told (``json`` reads ``"\\ud800"`` into a str that
#: no UTF-8 text can carry, and the store and the responses are UTF-8)
HALF_A_SURROGATE = (
    "the body holds an unpaired UTF-16 surrogate escape (a \\ud800-\\udfff without its other "
    "half): it is not Unicode text"
)


def strict_object(body: bytes) -> dict[str, Any]:
    """The body's JSON object, read as strictly as a command (``parse_json_object``), and
    refused too if a string in it holds half a surrogate pair. InputError (400) for either."""
    raw = parse_json_object(body)
    try:
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(HALF_A_SURROGATE, "input/bad_json") from None
    return raw


class StrictRequest(Request[Any, Any, Any]):
    """Litestar's request, whose JSON body is read as strictly as a command is
    (``parse_json_object``): a key given twice, ``NaN``, text that is not UTF-8 or anything but
    one object is a 400, so that no body means one thing to the server and another to the
    client's JSON library (which of two ``"ruleset"`` keys would count?)."""

    async def json(self) -> Any:
        try:
            return strict_object(await self.body())
        except InputError as exc:
            raise InputError(said_of_the_body(exc.message), exc.code) from None


def warlog(connection: ASGIConnection[Any, Any, Any, Any]) -> Warlog:
    found: Warlog = connection.app.state.warlog
    return found


class BearerAuth(AbstractAuthenticationMiddleware):
    """Who the request is from (401 if nobody we know), and whether that caller may touch the
    game in the path (403 for a player's token and any other game) or an organiser's route."""

    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        once(connection, ("Authorization",))  # which of two tokens would it be?
        caller = await warlog(connection).tokens.caller(connection.headers.get("authorization"))
        game = connection.path_params.get("game")
        if game is not None:
            caller.player_in(game)
            check_game_id(game)  # the organiser's 400 for an id no game can have (not 404)
        admin_only = connection.route_handler.opt.get("admin_only")
        if admin_only:
            caller.require_admin(admin_only)
        # after the checks of who may ask (a 401 or 403 first, whatever the query says)
        counts = Counter(name for name, _ in connection.query_params.multi_items())
        twice = sorted(name for name, n in counts.items() if n > 1)
        if twice:
            raise InputError(
                f"query parameter {quoted(twice[0])} is given more than once: give it once",
                "input/repeated_parameter",
            )
        once(connection, SEQ_HEADERS)
        return AuthenticationResult(user=caller, auth=None)


def player_of(request: Request[Any, Any, Any], game: FromPath[str]) -> str | None:
    """The player the caller acts as in ``game`` (None: the organiser)."""
    caller: Caller = request.user
    return caller.player_in(game)


async def call(request: Request[Any, Any, Any], fn: Callable[[Arbiter], Any]) -> Any:
    return await warlog(request).host.call(fn)


def json_kind(value: Any) -> str:
    """What JSON calls ``value``'s kind, for an error message: ``a number``, ``null``…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "an array" if isinstance(value, list) else "an object"


def must_be_revealed(arb: Arbiter, game: str, player: str | None, what: str) -> None:
    """AuthError unless the caller is the organiser or the game's seed is revealed."""
    if player is not None and not arb.folded(game).meta.revealed:
        raise AuthError(
            f"players may read the {what} once the game's seed is revealed", "auth/not_revealed"
        )


def check_seqs(game: str, head: int, *seqs: int | None) -> None:
    """InputError naming the first of ``seqs`` below 1 (a seq past the head may be waited
    for): the CLI's line and code for a seq outside the log."""
    for seq in seqs:
        if seq is not None and seq < 1:
            raise no_event(game, head, seq)


def events_between(
    arb: Arbiter, game: str, player: str | None, from_seq: int, until: int | None
) -> list[Record]:
    """The events ``from_seq``..``until`` (as far as the log goes) as ``player`` sees them;
    ``from_seq`` may be the head + 1 (nothing new yet), not beyond (InputError)."""
    head, _ = arb.head(game)
    check_seqs(game, head, from_seq, until)
    if from_seq > head + 1:
        raise no_event(game, head, from_seq)
    last = head if until is None else min(until, head)
    return [] if from_seq > last else list(arb.records_as(game, player, from_seq, last))


# ---------------------------------------------------------------------------------- routes

PUBLIC = {"exclude_from_auth": True}


@get("/rulesets", opt=PUBLIC, security=[], responses=responses())
async def list_rulesets() -> list[s.RulesetRow]:
    """The rulesets, their versions and bundled scenarios (as `warlog rulesets --json`)."""
    return [msgspec.convert(row, s.RulesetRow) for row in registry.catalogue()]


@post(
    "/games",
    status_code=201,
    opt={"admin_only": "create games"},
    responses=responses(400, 401, 403, 409),
)
async def create_game(request: Request[Any, Any, Any], data: JSONBody[s.NewGame]) -> s.CreatedGame:
    """Create a game of a bundled scenario; one new token per player (the organiser's only)."""

    def create(arb: Arbiter) -> s.CreatedGame:
        ruleset = arb.rulesets(data.ruleset)
        if data.scenario is not None and data.scenario not in registry.bundled_scenarios(ruleset):
            known = ", ".join(sorted(registry.bundled_scenarios(ruleset))) or "none"
            raise InputError(
                f"unknown scenario {data.scenario[:60]!r}: the bundled ones are {known}",
                "input/unknown_scenario",
            )
        game = arb.new_game(
            data.ruleset, data.scenario, game=data.game, dice=data.dice, salt=data.salt
        )
        tokens, kept = issue(game, arb.about(game)["players"])
        arb.vault.put_tokens(kept)
        return s.CreatedGame(game, tokens)

    created: s.CreatedGame = await call(request, create)
    return created


@get("/games/{game:str}", responses=responses(400, 401, 403, 404), response_headers=[HEAD_TAG])
async def game_summary(
    request: Request[Any, Any, Any], game: FromPath[str]
) -> Response[s.GameSummary]:
    """The game: ruleset, version, players, head and whether it is over."""
    summary = msgspec.convert(await call(request, lambda arb: arb.about(game)), s.GameSummary)
    return Response(summary, headers=head_tag(summary.head.seq))


@get("/games/{game:str}/legal", responses=responses(400, 401, 403, 404))
async def legal(request: Request[Any, Any, Any], game: FromPath[str]) -> s.Legal:
    """The caller's legal commands now (the organiser: everyone's the game waits for)."""
    player = player_of(request, game)
    return s.Legal(await call(request, lambda arb: arb.legal(game, player)))


def referee_plays(player: str) -> str:
    """Why a player's token plays nothing in a manual-dice game. Whether a command rolls, and
    how many dice, can hang on what that player may not see (a stealthed army in reach of a
    move, the other side's sealed bid): a refusal only when dice were needed would tell it, so
    the organiser's token enters every command of such a game, with its faces, whatever it rolls
    (docs/server.md, "Manual dice")."""
    return (
        f"in a manual-dice game the organiser's token enters every command, {player}'s too, "
        "with the faces the referee rolled"
    )


@post(
    "/games/{game:str}/commands",
    status_code=200,
    responses=responses(400, 401, 403, 404, 409, 422),
    response_headers=[HEAD_TAG],
)
async def play(
    request: Request[Any, Any, Any],
    game: FromPath[str],
    if_match: Annotated[
        str | None,
        HeaderParameter(
            name="If-Match",
            description="The head seq the command was decided on (quotes allowed): the "
            "command is refused with 409, nothing applied, unless the head is still that seq.",
        ),
    ] = None,
) -> Response[s.Verdict]:
    """Apply one command, as `warlog play` takes it; its `player` must be the token's. The
    verdict: the events appended as the caller may see them and the new head."""
    player = player_of(request, game)
    # a seq no log reaches is a head that is not this game's: a conflict, as any other
    expected = parse_seq_header("If-Match", if_match, 1, beyond=10**SEQ_DIGITS)
    body = await request.body()
    command = strict_object(body)
    if player is not None:
        named = command.get("player")
        if not isinstance(named, str):  # bad input, as the CLI and the organiser's token say
            raise InputError(
                "the command has no 'player'"
                if "player" not in command
                else f"the command's 'player' must be a string, not {json_kind(named)}",
                "input/bad_command",
            )
        if named != player:
            raise AuthError(f"this token plays only {player}'s commands", "auth/not_your_seat")
        if command.get("dice"):
            raise AuthError(
                "a referee's dice are entered with the organiser's token", "auth/referee_dice"
            )

    def apply(arb: Arbiter) -> list[Any]:
        if player is not None and arb.folded(game).meta.dice.mode == "manual":
            raise AuthError(referee_plays(player), "auth/referee_plays")
        if expected is not None:
            seq, hash_ = arb.head(game)
            if seq != expected:
                raise StaleHead(if_match or "", seq, hash_)
        # decided on that head, so that a head moved on by another process between the check
        # and the append is a conflict too, not a command decided on a newer state
        try:
            return arb.play_as(game, body, player, referee=player is None, on=expected)
        except ConflictError as lost:
            if lost.code != "store/conflict":
                raise
            seq, hash_ = arb.head(game)  # the head it lost to, as a stale If-Match is told
            if expected is not None:
                raise StaleHead(if_match or "", seq, hash_) from None
            raise LostRace(game, seq, hash_) from None

    records = await call(request, apply)
    last = records[-1]
    verdict = s.Verdict([s.ExportedEvent.of(r) for r in records], s.Head(last.seq, last.hash))
    return Response(verdict, headers=head_tag(last.seq))


@get("/games/{game:str}/state", responses=responses(400, 401, 403, 404))
async def state(
    request: Request[Any, Any, Any],
    game: FromPath[str],
    at: Annotated[
        int | None, QueryParameter(description="After event SEQ (default: the head).")
    ] = None,
) -> dict[str, Any]:
    """The state as the caller may see it (what `warlog state GAME --json --as PLAYER` prints)."""
    player = player_of(request, game)
    view: dict[str, Any] = await call(request, lambda arb: arb.view(game, at, player))
    return view


@get(
    "/games/{game:str}/events",
    responses=responses(400, 401, 403, 404),
    response_description="The events as the caller may see them (or the live feed).",
)
async def events(
    request: Request[Any, Any, Any],
    game: FromPath[str],
    from_seq: Annotated[int, QueryParameter(name="from", description="The first seq.")] = 1,
    until: Annotated[
        int | None,
        QueryParameter(description="The last seq: the feed closes after it is sent."),
    ] = None,
    last_event_id: Annotated[
        str | None,
        HeaderParameter(
            name="Last-Event-ID",
            description="The feed resumes after this seq (instead of at `from`).",
        ),
    ] = None,
) -> Response[Any]:
    """The events from `from` in the export format, as the caller may see them: a JSON array;
    with `Accept: text/event-stream`, the live feed (one SSE event per log event, `id:` its
    seq, `event:` its type, `data:` the event; new events as they are appended)."""
    player = player_of(request, game)
    wanted = request.accept.best_match(["application/json", EVENT_STREAM], "application/json")
    if wanted != EVENT_STREAM:
        records = await call(
            request, lambda arb: events_between(arb, game, player, from_seq, until)
        )
        return Response([s.ExportedEvent.of(r) for r in records])
    resumed = parse_seq_header("Last-Event-ID", last_event_id, 0)
    after = from_seq - 1 if resumed is None else resumed

    def check(arb: Arbiter) -> None:
        head, _ = arb.head(game)
        check_seqs(game, head, until, from_seq if resumed is None else None)
        if after > head:
            raise InputError(
                f"game {game} has events 1..{head}; there is nothing after {after} yet to "
                "resume from",
                "input/bad_seq",
            )
        arb.reader(game, player)

    await call(request, check)
    app = warlog(request)
    feed = live(app.host, app.feeds, game, player, after, until, app.keepalive)
    return Stream(
        feed,
        media_type=EVENT_STREAM,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@get("/games/{game:str}/log", responses=responses(400, 401, 403, 404))
async def events_view(
    request: Request[Any, Any, Any],
    game: FromPath[str],
    all_: Annotated[bool, QueryParameter(name="all", description="Expired entries too.")] = False,
) -> s.EventsView:
    """The in-game Events view for the caller (the organiser: every empire)."""
    player = player_of(request, game)

    def read(arb: Arbiter) -> s.EventsView:
        view = arb.events_view(game, player)
        tabs = msgspec.to_builtins(view.tabs(player, all_))
        return s.EventsView(view.round, tabs)

    found: s.EventsView = await call(request, read)
    return found


@get("/games/{game:str}/head", responses=responses(400, 401, 403, 404), response_headers=[HEAD_TAG])
async def head(request: Request[Any, Any, Any], game: FromPath[str]) -> Response[s.Head]:
    """The last event's seq and hash: a receipt."""
    seq, hash_ = await call(request, lambda arb: arb.head(game))
    return Response(s.Head(seq, hash_), headers=head_tag(seq))


@post(
    "/games/{game:str}/reveal",
    status_code=200,
    opt={"admin_only": "reveal a game's seed"},
    responses=responses(400, 401, 403, 404, 409),
    response_headers=[
        ResponseHeader(
            name=LIVE_RELATIVES,
            documentation_only=True,
            description="The games still being played that share hidden history with this one "
            "(its parent, its forks: the hands and draws before a fork; a game imported from an "
            "export of it: the same key), comma-separated, when the reveal went ahead despite "
            "them (`despite_live_forks=true`); their secrets can now be told from this game's. "
            "Absent when none.",
        )
    ],
)
async def reveal(
    request: Request[Any, Any, Any],
    game: FromPath[str],
    despite_live_forks: Annotated[
        bool,
        QueryParameter(
            description="Reveal even though games that share its hidden history (its forks, "
            "its parent, a game imported from an export of it) are still being played; without "
            "it such a reveal is refused with 409 `input/live_forks`, nothing revealed."
        ),
    ] = False,
) -> Response[s.Revealed]:
    """Publish the dice seed (a `dice_revealed` event): play in the game is over, every sealed
    value opens, every die can be checked. Refused with 409 `input/live_forks` while games that
    share its hidden history are still being played, unless `despite_live_forks=true`; then
    `Warlog-Live-Relatives` names them (as `warlog reveal`'s note)."""

    def publish(arb: Arbiter) -> Response[s.Revealed]:
        live = arb.live_relatives(game) if despite_live_forks else []
        revealed = arb.reveal(game, despite_live_forks=despite_live_forks)
        headers = {LIVE_RELATIVES: ", ".join(live)} if live else {}
        return Response(s.Revealed(revealed.seq), headers=headers)

    answer: Response[s.Revealed] = await call(request, publish)
    return answer


@get(
    "/games/{game:str}/export",
    media_type=JSON_LINES,
    responses=responses(400, 401, 403, 404),
    response_description="The export: JSON Lines, one event per line.",
)
async def export(request: Request[Any, Any, Any], game: FromPath[str]) -> str:
    """The game in the export format (the organiser's; a player's once the seed is revealed)."""
    player = player_of(request, game)

    def read(arb: Arbiter) -> str:
        must_be_revealed(arb, game, player, "export")
        return "".join(export_line(r) + "\n" for r in arb.export_records(game))

    text: str = await call(request, read)
    return text


@get(
    "/games/{game:str}/audit",
    responses=responses(400, 401, 403, 404),
    response_headers=[
        ResponseHeader(
            name="Warlog-Audit-Complete",
            documentation_only=True,
            description="`yes` when every check was made (the findings cover the whole log), "
            "`no` when some could not be",
        ),
        ResponseHeader(
            name="Warlog-Audit-Unchecked",
            documentation_only=True,
            description="With `Warlog-Audit-Complete: no`: what was not checked, `; `-separated "
            "(e.g. `dice: 4 rolls` before the reveal)",
        ),
    ],
)
async def audit(request: Request[Any, Any, Any], game: FromPath[str]) -> Response[s.Findings]:
    """Chain, rules re-derivation, dice and seals (the organiser's; a player's once the seed
    is revealed): the findings, empty when the audit found nothing. Whether that covers every
    check is in the headers: `Warlog-Audit-Complete: yes`, or `no` and `Warlog-Audit-Unchecked`
    naming what was not checked (e.g. the dice before the reveal); `warlog audit` says more."""
    player = player_of(request, game)

    def check(arb: Arbiter) -> Response[s.Findings]:
        must_be_revealed(arb, game, player, "audit")
        auditor = arb.audit(game)
        unchecked = auditor.proved.unchecked()
        headers = {"Warlog-Audit-Complete": "no" if unchecked else "yes"}
        if unchecked:
            headers["Warlog-Audit-Unchecked"] = "; ".join(unchecked)
        return Response(s.Findings(msgspec.to_builtins(auditor.findings)), headers=headers)

    found: Response[s.Findings] = await call(request, check)
    return found


ROUTES = [
    list_rulesets,
    create_game,
    game_summary,
    legal,
    play,
    state,
    events,
    events_view,
    head,
    reveal,
    export,
    audit,
]


def create_app(
    open_arbiter: Callable[[], Arbiter],
    admin_token: str,
    *,
    keepalive: float = KEEPALIVE_SECONDS,
) -> Litestar:
    """The server's ASGI app on the Arbiter ``open_arbiter`` makes (opened on the arbiter's
    own thread; closed when the app shuts down). StoreError if it cannot be opened."""
    feeds = Feeds()

    def opened() -> Arbiter:
        arb = open_arbiter()
        arb.watch(functools.partial(feeds.appended, arb))
        follow = getattr(arb.store, "follow", None)
        if follow is not None:  # other processes append to this database too (PostgreSQL)
            follow(feeds.appended_elsewhere, feeds.missed)
        return arb

    host = ArbiterHost(opened)

    async def lookup(id_: str) -> Any:
        return await host.call(lambda arb: arb.vault.token(id_))

    app_state = Warlog(host, feeds, Tokens(admin_token, lookup), keepalive)
    return Litestar(
        ROUTES,
        state=State({"warlog": app_state}),
        middleware=[DefineMiddleware(BearerAuth, exclude=[r"^/openapi\.json"])],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=MAX_BODY,
        request_class=StrictRequest,
        on_startup=[host.open],
        on_shutdown=[feeds.close, host.close],
        openapi_config=openapi_config(importlib.metadata.version("warlog")),
        logging_config=None,
    )
