"""Hostile spec files: each a few bytes that would hang, blow up or fool a naive loader
(used by tests/core/test_spec_hostile.py and, under memory limits, tests/uses/test_limits.py)."""

from __future__ import annotations

LAUGHS = "name: lol\n" + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}]\n" for i in range(1, 10))

CASES: dict[str, bytes] = {
    "billion-laughs": LAUGHS.encode(),
    "alias-bomb-in-combos": b"name: s\ncombos:\n  single: &p \"1\"\n  pair: *p\n",
    "python-tag": b"name: s\ncombos: !!python/object/apply:os.system [\"echo hi\"]\n",
    "custom-tag": b"name: s\ncombos: {single: !mine \"1\"}\n",
    "nul": b"name: s\ncombos: {single: \"1\x00\"}\n",
    "control-char": b"name: s\ncombos:\n  single: \"\x1b[31m1\"\n",
    "not-utf8": b"name: s\ntitle: {zh: \"\xb6\xb7\xb5\xd8\xd6\xf7\"}\n",
    "deep-nesting": b"name: s\nnotes: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "self-alias": b"name: s\ncombos: &c {single: \"1\", again: *c}\n",
    "huge": b"name: s\nnotes: \"" + b"x" * 2_000_000 + b"\"\n",
    # 300,000 values on one line, under the size limit: 12 s and 335 MB to build
    "many-values": b"name: s\nnotes: [" + b"1," * 300_000 + b"1]\n",
    "nan": b"name: s\nextends: huanle\ngame:\n  bidding: {plugin: bid-score, params: {max_bid: .nan}}\n",
    "digits": b"name: s\nplayers: " + b"9" * 5000 + b"\n",
    # half a UTF-16 pair: no character (the spec's hash failed on it with a UnicodeEncodeError)
    "surrogate": b'name: s\ntitle: {en: "\\ud800", zh: x}\n',
}
