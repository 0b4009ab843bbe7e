"""Run by tests/kit/test_fastcall_pipe.py in a process of its own, as gunicorn's gevent
worker runs the app: ``socket`` patched before anything else, then many greenlets
sending the store's hot commands through ``shared.store.connection`` at once. Prints one JSON
line of what it saw. Usage: ``python -m tests.kit.pipe_under_gevent REDIS_URL [--unpiped]``."""

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
import redis  # noqa: E402

from shared.store import connection as fastcall  # noqa: E402

STALL = """
local s = redis.call('TIME')
local start = s[1] * 1000000 + s[2]
repeat local t = redis.call('TIME') until t[1] * 1000000 + t[2] - start > 300000
return 1
"""


def main(url: str, piped: bool) -> dict[str, Any]:
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=0.1)
    if not piped:
        fastcall.unpiped(client)  # REDIS_PIPELINE=0
    other = redis.Redis.from_url(url, decode_responses=True)
    seen: dict[str, Any] = {"wrong": [], "errors": {}, "ok": 0, "calls": 0}
    real_call = fastcall.call

    def counted(*args: Any) -> Any:
        seen["calls"] += 1
        return real_call(*args)

    fastcall.call = counted  # type: ignore[assignment]

    def note(error: BaseException) -> None:
        name = type(error).__name__
        seen["errors"][name] = seen["errors"].get(name, 0) + 1

    def one(i: int, rounds: int) -> None:
        for r in range(rounds):
            value = f"v{i}-{r}"
            try:
                fastcall.call(client, "SET", f"pipe:{i}", value)
                got = fastcall.call(client, "GET", f"pipe:{i}")
                both = fastcall.call(client, "MGET", f"pipe:{i}", "pipe:none")
                if got != value or both != [value, None]:
                    seen["wrong"].append((i, r, got, both))
                else:
                    seen["ok"] += 1
                if i % 7 == 0:  # an error reply reaches its own caller only
                    try:
                        fastcall.call(client, "EVALSHA", "0" * 40, 0)
                        seen["wrong"].append((i, r, "no NoScriptError"))
                    except redis.exceptions.NoScriptError:
                        pass
            except (redis.exceptions.TimeoutError, redis.exceptions.ConnectionError) as error:
                note(error)
            gevent.sleep(0)

    def kill_and_stall() -> None:
        gevent.sleep(0.05)
        other.client_kill_filter(_type="normal", skipme=True)  # the pipe's socket dies
        gevent.sleep(0.05)
        other.eval(STALL, 0)  # Redis answers nobody for 0.3 s: waits time out

    before = int(other.info("stats")["total_reads_processed"])
    calls_before = int(other.info("stats")["total_commands_processed"])
    started = time.monotonic()
    gevent.joinall([gevent.spawn(one, i, 40) for i in range(300)] + [gevent.spawn(kill_and_stall)])
    seen["seconds"] = round(time.monotonic() - started, 2)
    # after the kill and the stall, every command is answered again, each its own reply
    seen["after"] = []
    gevent.joinall([gevent.spawn(one, i, 5) for i in range(300)])
    for i in range(300):
        seen["after"].append(fastcall.call(client, "GET", f"pipe:{i}") == f"v{i}-4")
    stats = other.info("stats")
    seen["reads"] = int(stats["total_reads_processed"]) - before
    seen["commands"] = int(stats["total_commands_processed"]) - calls_before
    seen["piped"] = fastcall.lane_of(client).piped
    return seen


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2:] != ["--unpiped"])))
