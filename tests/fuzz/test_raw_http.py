"""Hypothesis over raw sockets against real gunicorn (gevent workers): malformed HTTP.

What a client library never sends and gunicorn refuses before Flask runs (request lines
and headers too long or too many, bad names, bad versions, bad chunk framing, bodies
over the limit) used to be an HTML page. Every answer must be a complete HTTP response,
never a 5xx, problem+json for every error, with ``nosniff``.
"""

from __future__ import annotations

import json

import hypothesis
from hypothesis import strategies as st

from tests.fuzz.test_openapi import EXAMPLES, SEED
from tests.kit.helpers import PROBLEM
from tests.rawhttp import request

SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES * 2,
    deadline=None,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)

token = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12)
junk = st.binary(max_size=40)
methods = st.sampled_from([b"GET", b"POST", b"OPTIONS", b"DELETE", b"G\x00T", b"", b"get"])
paths = st.one_of(
    st.sampled_from([b"/games", b"/games/0123456789abcdef/events", b"/readyz", b"*"]),
    # over limit_request_line (4094), within gunicorn's first 8 KiB read
    st.integers(4_000, 7_000).map(lambda n: b"/games?x=" + b"a" * n),
    junk,
)
versions = st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/9.9", b"HTTP/1.1x", b""])


@st.composite
def header_blocks(draw: st.DrawFn) -> bytes:
    """Headers: ordinary, too large, too many, badly named, folded, or raw junk."""
    kind = draw(st.sampled_from(["plain", "huge", "many", "bad-name", "folded", "junk"]))
    if kind == "huge":
        return b"X-Big: " + b"a" * draw(st.integers(8_000, 20_000)) + b"\r\n"
    if kind == "many":
        return b"".join(b"X-%d: a\r\n" % i for i in range(draw(st.integers(101, 300))))
    if kind == "bad-name":
        return draw(st.sampled_from([b"Bad Name", b"X\x00", b"(x)", b""])) + b": 1\r\n"
    if kind == "folded":
        return b"X: a\r\n folded\r\n"
    if kind == "junk":
        return draw(junk) + b"\r\n"
    return b"".join(
        f"X-{k}: {v}\r\n".encode() for k, v in draw(st.dictionaries(token, token)).items()
    )


@st.composite
def chunked_bodies(draw: st.DrawFn) -> bytes:
    """A chunked body: well-framed, with a bad size or extension, over the limit, or cut."""
    kind = draw(st.sampled_from(["ok", "bad-size", "bad-ext", "big", "no-end"]))
    if kind == "bad-size":
        size = draw(st.sampled_from([b"zz", b"-1", b"0x2", b"", b" 2", b"2 2"]))
        return b"Transfer-Encoding: chunked\r\n\r\n" + size + b"\r\n{}\r\n0\r\n\r\n"
    if kind == "bad-ext":
        return b"Transfer-Encoding: chunked\r\n\r\n2;\x01\r\n{}\r\n0\r\n\r\n"
    if kind == "big":
        chunk = b" " * 8192
        count = draw(st.integers(9, 20))  # 72-160 KiB, over MAX_CONTENT_LENGTH
        body = b"".join(b"2000\r\n" + chunk + b"\r\n" for _ in range(count))
        return b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n" + body + b"1\r\n}\r\n0\r\n\r\n"
    if kind == "no-end":
        return b"Transfer-Encoding: chunked\r\n\r\n10\r\n{}"
    return b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"


@hypothesis.seed(SEED)
@SETTINGS
@hypothesis.given(
    method=methods,
    path=paths,
    version=versions,
    headers=header_blocks(),
    body=st.one_of(st.just(b"\r\n"), chunked_bodies()),
)
def test_malformed_http_gets_a_problem(
    live_manhattan: str, method: bytes, path: bytes, version: bytes, headers: bytes, body: bytes
) -> None:
    raw = method + b" " + path + b" " + version + b"\r\nHost: fuzz\r\n" + headers + body
    # Half-close after sending: the server sees the end of whatever was sent and answers.
    r = request(live_manhattan, raw, half_close=True)
    assert r.status < 500 or r.status == 501, (r.status, r.body[:300])
    assert r.headers.get("x-content-type-options") == "nosniff", r.headers
    if r.status >= 400:
        assert r.headers["content-type"].startswith(PROBLEM), (r.status, r.headers)
        problem = json.loads(r.body)
        assert problem["status"] == r.status and problem["code"], problem
