"""What vulture (``make lint``) cannot see being used: names read by a framework, by
introspection or through string keys. Keep it short; anything else unused is dead code.
"""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# TypedDict fields: the engines read their state through string keys
# (services/*/rules/state.py, shared/engine.py's Choice).
_.promo_scored, _.categories, _.start_player, _.current_player, _.selected, _.forfeited
_.discard_pile, _.promos_revealed, _.scores, _.discards_this_turn, _.observatories
_.discard, _.exclude_field

# marshmallow schema fields (serialized by name) and an overridden signature.
_.max_timeouts, _.timeouts, _.seed_commitment, _.seed_chosen, _.created_at, _.next_cursor
_.include, _.webhook_id, _.webhook_secret, _.last_error, _.next_attempt_at, _.delivered_at
_.invite_code, _.join_link, _.external_id, _.win_share  # (the create, player and rating answers)
_.games_to_rank  # (a profile rating's, in the answer schema)
_.ratings_pending  # a GameDoc key, read with .get()
_.visibility  # a GameDoc key and an answer's field (stored by shared/games/options.py)
_.spectators, _.spectator_chat, _.spectator_delay, _.watch_marks  # GameDoc keys (options.py)
_.get_declared_fields  # marshmallow's SchemaMeta hook (shared/http/schemas/options.py)
_.device, _.expirationTime, _.quiet_hours, _.time_zone  # shared/http/schemas/push.py
_.fg, _.accent, _.font, _.radius, _.expires_in, _.expires_at  # shared/http/schemas/embeds.py
_.by, _.resolution  # shared/http/schemas/moderation.py
_.phrase_text  # shared/http/schemas/chat.py
_.table_size, _.withdrawn, _.Meta  # shared/http/schemas/tournaments.py
# the per-game payload schemas of the OpenAPI document (services/*/schemas.py)
(
    _.beach_max,
    _.deck_size,
    _.duplex,
    _.enabled,
    _.four,
    _.hand_size,
    _.house_points,
    _.houses_on_board,
    _.in_game,
    _.land_sections,
    _.majorities,
    _.money_points,
    _.pieces_per_round,
    _.previous_owner,
    _.quota,
    _.safety_stop,
    _.three,
)
_.many

# flask-smorest / Flask overrides and the request-scoped ``g`` attribute
# (shared/http/resources/blueprint.py, shared/http/app.py, shared/http/middleware/apikeys.py).
_._raw_load_json, _.ARGUMENTS_PARSER, _.ERROR_SCHEMA, _._register_error_handlers
_.sort_keys, _.ensure_ascii, _.api_key_reservation, _._handle_invalid_json_error
_.problem_code, _._got_first_request  # read as g.get("problem_code"); Flask's own flag
_.__contains__  # the HeaderMap protocol (shared/http/middleware/headers.py), used by `in`

# gunicorn: the error writer installed (from gunicorn.conf.py) in place of its own.
_.install, _.write_error, _.mesg

# Metrics defined ahead for the worker and webhooks, documented in docs/operations.md.
_.WEBHOOK_DELIVERIES, _.WEBHOOK_LATENCY

# Tests: http.server handler hooks, a schemathesis check's signature, redis-py's script
# cache attribute set by a test.
_.daemon_threads, _.log_message, _.do_GET, _.do_POST, _.do_DELETE, _.ctx, _.sha
_.merge_slashes  # Flask's url_map setting (shared/http/app.py)

# PettingZoo's AECEnv API, called by its tests and users (shared/rl/env.py); pytest's
# module-level marks (tests/rl/test_envs.py).
_.observation_space, _.action_space, _.pytestmark

# loaded by name through the entry points in pyproject.toml (shared/registry.py)
_.CODEC  # services/*/rl.py: "boardgames.rl"

# argparse.HelpFormatter hook, overridden in clients/cli/__main__.py.
_._split_lines
