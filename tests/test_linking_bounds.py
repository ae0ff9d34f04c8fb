"""The linker's abbreviation scan near the zones finds the same tokens as a scan of the window."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cuelex.concepts.linking import _TOKEN_RE, _token_bounds

_TEXT = st.lists(st.sampled_from(list("aZ9+-'\u2019 .,/(\n") + ["s", "PE", "CHF"]), max_size=20).map("".join)


@given(_TEXT, st.data())
def test_scan_near_zones_finds_the_window_tokens_there(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    lo = data.draw(st.integers(start - 5, end + 5))
    hi = data.draw(st.integers(lo, end + 10))
    a, b = _token_bounds(text, start, end, lo, hi)
    assert start <= a <= b <= end
    window = [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text, start, end)]
    near = [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text, a, b)]
    # every window token touching [lo, hi] is found whole, and nothing the window scan lacks
    assert [t for t in window if t[1] >= lo and t[0] <= hi] == [
        t for t in near if t[1] >= lo and t[0] <= hi
    ]
    assert set(near) <= set(window)


def test_scan_bounds_examples():
    text = "Possible PE-related CHF's, no PNA."
    # from inside "CHF's" the bounds widen to the whole token
    a, b = _token_bounds(text, 0, len(text), text.index("HF"), text.index("HF") + 1)
    assert text[a:b] == "CHF's"
    # clamped to the window
    assert _token_bounds(text, 9, 20, 0, 100) == (9, 20)
    a, b = _token_bounds(text, 0, len(text), text.index("related"), text.index("related") + 2)
    assert text[a:b] == "PE-related"
