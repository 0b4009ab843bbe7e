"""The app factory of a game service: a game plugs in its rules and schemas, and gets a
complete Flask app (routes, OpenAPI, errors, health) back."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from inspect import CO_COROUTINE
from types import CodeType
from typing import Any, cast

from flask import Flask, Response, g, request
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api
from marshmallow import Schema

from shared.engine import Engine
from shared.games import Games
from shared.http.docs_ui import init_docs_assets, swagger_ui_config
from shared.http.errors import register_error_handlers
from shared.http.fastpath import HotPath, take_pending
from shared.http.health import blp as health_blp
from shared.http.middleware.apikeys import init_api_keys
from shared.http.middleware.cors import init_cors
from shared.http.middleware.framing import TransferCodings
from shared.http.middleware.headers import init_headers
from shared.http.middleware.metrics import init_metrics
from shared.http.middleware.ratelimit import AddressLimits
from shared.http.middleware.request_log import configure_logging, init_request_log
from shared.http.middleware.waits import WaitGateMiddleware
from shared.http.openapi import document_game
from shared.http.play import blp as play_blp
from shared.http.resources import make_blueprint
from shared.http.schemas.answers import ProblemSchema
from shared.http.schemas.moves import MoveUnion
from shared.ops.config import load_settings
from shared.store import jsoncodec, open_store
from shared.streaming.events import WaitGate


@dataclass
class GameKit:
    """What the views need, kept in ``app.extensions["game_kit"]``: the game logic
    (with its store: connection pools and the loaded script, nothing else) and the caps
    on waiting clients."""

    games: Games
    waits: WaitGate


class KitFlask(Flask):
    """Flask, with a cheaper answer to "is this hook or view a coroutine?"."""

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask asks this of every hook and view of every request (a dozen times a
        request, 4% of a move's CPU in ``inspect.iscoroutinefunction``). A function or
        bound method answers from its code flags, as that function would; anything else
        takes Flask's own path."""
        code = getattr(func, "__code__", None)
        if isinstance(code, CodeType) and not code.co_flags & CO_COROUTINE:
            return func
        return super().ensure_sync(func)

    def preprocess_request(self) -> Response | None:
        """The before-request hooks; or, for a request shared/http/fastpath.py began and met
        an error in, that error (its hooks' work is done), answered as a view's would be."""
        pending = take_pending(request.environ)
        if pending is None:
            return cast(Response | None, super().preprocess_request())
        g.started, g.request_id = pending.started, pending.request_id
        raise pending.error


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with :mod:`shared.store.jsoncodec` (orjson) writing the answers:
    the same bytes (compact, UTF-8, keys in order, a final newline), several times
    faster. Debug mode's indented output and reading stay Flask's own."""

    sort_keys = False
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:
            return super().dumps(obj, **kwargs)
        return jsoncodec.dumps_text(obj, self.default)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if self.compact is False or (self.compact is None and self._app.debug):
            return cast(Response, super().response(*args, **kwargs))
        body = jsoncodec.dumps(self._prepare_response_obj(args, kwargs), self.default)
        return Response(body + b"\n", mimetype=self.mimetype)


class KitApi(Api):
    """flask-smorest's Api, with our problem+json handlers instead of its error format."""

    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self) -> None:
        register_error_handlers(self._app)


def create_game_app(
    engine: Engine,
    options_schema: type[Schema],
    move_schema: type[Schema],
    key_prefix: str,
    config: dict[str, Any] | None = None,
    payloads: Mapping[str, type[Schema]] | None = None,
    events: Mapping[str, type[Schema]] | None = None,
) -> Flask:
    """A complete Flask app serving ``engine``.

    ``options_schema`` validates ``POST /games`` (its ``players`` and ``seed`` fields are
    the kit's, the rest go to ``engine.setup``); ``move_schema`` validates moves (a
    :class:`~shared.http.schemas.moves.MoveUnion` is documented as a ``oneOf``); ``key_prefix``
    namespaces the Redis keys; ``config`` overrides settings from the environment;
    ``payloads`` (``State``, ``Score``, ``Result``) and ``events`` (by type) document the
    engine's answers (shared/http/openapi.py).
    """
    settings = load_settings(config)
    app = KitFlask(engine.NAME)
    app.url_map.merge_slashes = False  # /games//x is a 404 problem, not an HTML 308
    app.json = JSONProvider(app)
    app.config.update(settings)
    app.config.update(
        API_TITLE=f"{engine.NAME} game service",
        API_VERSION="1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
    )
    app.config.update(swagger_ui_config())  # /docs with assets served here, not from a CDN
    _configure_logging(app, settings["LOG_LEVEL"])
    configure_logging(settings["LOG_LEVEL"], settings["LOG_FORMAT"])
    init_request_log(app)

    store = open_store(settings, key_prefix)
    waits = WaitGate(
        settings["EVENTS_MAX_WAITERS_PER_ADDRESS"],
        settings["EVENTS_MAX_WAITERS_PER_PROCESS"],
        settings["EVENTS_RETRY_AFTER_SECONDS"],
    )
    app.extensions["game_kit"] = GameKit(Games(engine, store, settings), waits)
    limits = AddressLimits(app, settings, key_prefix)
    app.wsgi_app = WaitGateMiddleware(app.wsgi_app, waits)  # type: ignore[method-assign]

    api = KitApi(app)
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    games_blp = make_blueprint(options_schema, move_schema)
    api.register_blueprint(games_blp)
    api.register_blueprint(health_blp)
    limits.limit_views(app, creates="games.create_game", joins="games.join_game")
    init_docs_assets(app)
    if issubclass(move_schema, MoveUnion):
        _document_union(api, move_schema)
    _document_join(api)
    _document_chat_post(api)
    prefix = options_schema.__name__.removesuffix("OptionsSchema")
    document_game(api, engine.NAME, prefix, payloads or {}, events or {})
    app.register_blueprint(play_blp)  # the browser client at /play
    init_cors(app, settings["CORS_ORIGINS"])
    init_metrics(app, app.extensions["game_kit"].games)
    init_api_keys(app, app.extensions["game_kit"].games, settings["API_KEYS_FILE"])
    init_headers(app)
    kit = app.extensions["game_kit"]
    app.wsgi_app = TransferCodings(app.wsgi_app)  # type: ignore[method-assign]
    app.wsgi_app = HotPath(app, app.wsgi_app, kit.games, games_blp.move_args)  # type: ignore[method-assign]
    return app


def _document_join(api: Api) -> None:
    """A join body needs ``name``, or ``bot`` for a bot seat: a rule across two fields
    that marshmallow cannot state, so say it in the document as an ``anyOf`` of two
    complete bodies (generators type that; an ``anyOf`` of bare ``required`` they do not)."""
    for table in (api.spec.components.schemas, api.spec.components.schemas_lazy):
        if "Join" in table:
            props = table["Join"]["properties"]
            player = {k: v for k, v in props.items() if k != "bot"}
            for name, fields_, required in (
                ("JoinAsPlayer", player, ["name"]),
                ("JoinAsBot", props, ["bot"]),
            ):
                body = {"properties": fields_, "required": required}
                api.spec.components.schema(
                    name, {"type": "object", **body, "additionalProperties": False}
                )
            table["Join"] = {
                "anyOf": [
                    {"$ref": "#/components/schemas/JoinAsPlayer"},
                    {"$ref": "#/components/schemas/JoinAsBot"},
                ]
            }


def _document_chat_post(api: Api) -> None:
    """A chat message is ``text`` or ``phrase``, exactly one: a rule across two fields
    marshmallow cannot state, so the document says it as a ``oneOf`` of two complete
    bodies (as the join's)."""
    for table in (api.spec.components.schemas, api.spec.components.schemas_lazy):
        if "ChatPost" in table:
            props = table["ChatPost"]["properties"]
            refs = []
            for name, field in (("ChatText", "text"), ("ChatPhrase", "phrase")):
                body = {"properties": {field: props[field]}, "required": [field]}
                api.spec.components.schema(
                    name, {"type": "object", **body, "additionalProperties": False}
                )
                refs.append({"$ref": f"#/components/schemas/{name}"})
            table["ChatPost"] = {"oneOf": refs}


def _document_union(api: Api, union: type[MoveUnion]) -> None:
    """Describe the move body as ``oneOf`` its member schemas (discriminated by type)."""
    refs = {}
    for kind, member in union.TYPES.items():
        name = member.__name__.removesuffix("Schema")
        api.spec.components.schema(name, schema=member)
        refs[kind] = f"#/components/schemas/{name}"
    union_name = union.__name__.removesuffix("Schema")
    component = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }
    for table in (api.spec.components.schemas, api.spec.components.schemas_lazy):
        if union_name in table:
            table[union_name] = component


def _configure_logging(app: Flask, level: str) -> None:
    level_no = logging.getLevelName(level.upper())
    if not isinstance(level_no, int):
        level_no = logging.INFO
    logging.basicConfig(level=level_no, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app.logger.setLevel(level_no)
    logging.getLogger("shared").setLevel(level_no)
