"""Nothing lost, nothing silently wrong (issue 15): every bad input gets a clear, located error or a
listed skip, outputs never overwrite inputs and survive failures, HTML and CSV are safe, the HTTP
client has a deadline. One test (at least) per row of docs/bad-input.md."""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time

import pytest

import cuelex
from cuelex import runner
from cuelex.cli import main
from cuelex.corpus import InputError, check_text, neutralize_cell, read_documents
from cuelex.llm import LLMError, OpenAIChat
from cuelex.report import render_report

# --------------------------------------------------------------------------------------------------
# F4 strict CSV


def test_csv_unclosed_quote_names_file_and_line(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text('id,text\n1,No fever.\n2,"Possible pneumonia.\n3,ok\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"n\.csv, line 3: malformed CSV: unexpected end of data"):
        list(read_documents(path))


def test_csv_stray_quote_and_short_row_are_bad_rows(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text('id,text\n1,No fever.\n2,"a"b\n3\n4,Possible pneumonia.\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"line 3: malformed CSV"):
        list(read_documents(path))
    problems = []
    docs = list(read_documents(path, problems=problems))
    assert [d.id for d in docs] == ["1", "4"]
    assert [(p.row, p.unit) for p in problems] == [(3, "line"), (4, "line")]
    assert "1 field(s), header has 2" in problems[1].message


def test_csv_quoted_newlines_keep_line_numbers(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text('id,text\n1,"two\nlines"\n2,x,y\n', encoding="utf-8")
    problems = []
    docs = list(read_documents(path, problems=problems))
    assert docs[0].text == "two\nlines" and problems[0].row == 4


# --------------------------------------------------------------------------------------------------
# F5 encoding


def test_invalid_utf8_names_file_and_byte_offset(tmp_path):
    path = tmp_path / "n.jsonl"
    good = b'{"id": "a", "text": "No fever."}\n'
    path.write_bytes(good + b'{"id": "b", "text": "caf\xe9 possible pneumonia"}\n')
    with pytest.raises(
        InputError, match=rf"n\.jsonl: not valid utf-8 at byte {len(good) + 24} \(line 2\)"
    ):
        list(read_documents(path))
    docs = list(read_documents(path, encoding="cp1252"))
    assert docs[1].text == "café possible pneumonia"


def test_cli_encoding_option_and_no_replacement_character(tmp_path, capsys):
    src = tmp_path / "note.txt"
    src.write_bytes("Possible pneumonia in the caf\u00e9.".encode("cp1252"))
    assert main(["extract", str(src), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert "byte 29 (line 1)" in capsys.readouterr().err
    assert main(["extract", str(src), "--encoding", "cp1252", "-o", str(tmp_path / "o.jsonl")]) == 0
    out = (tmp_path / "o.jsonl").read_text(encoding="utf-8")
    assert "\ufffd" not in out and "caf\u00e9" in out


def test_utf8_bom_is_dropped(tmp_path):
    path = tmp_path / "n.csv"
    path.write_bytes(b"\xef\xbb\xbfid,text\n1,No fever.\n")
    assert [d.id for d in read_documents(path)] == ["1"]


# --------------------------------------------------------------------------------------------------
# F6 truncated .gz


def test_truncated_gz_keeps_rows_read_and_says_so(tmp_path):
    path = tmp_path / "n.jsonl.gz"
    rows = "".join(
        json.dumps({"id": i, "text": f"Possible pneumonia {i}."}) + "\n" for i in range(3000)
    )
    data = gzip.compress(rows.encode())
    path.write_bytes(data[: len(data) // 2])
    got = []
    with pytest.raises(
        InputError, match=r"truncated or corrupt.*complete line\(s\) before it were read"
    ):
        for d in read_documents(path):
            got.append(d)
    assert 0 < len(got) < 3000 and got[-1].text.endswith(".")


# --------------------------------------------------------------------------------------------------
# F7 bad JSONL lines, minor rows: .json array, empty .jsonl


def test_bad_jsonl_line_is_an_error_with_its_line_unless_skipped(tmp_path, capsys):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": 1, "text": "No fever."}\n{"id": 2, "text": \n{"id": 3, "text": "ok"}\n',
                    encoding="utf-8")  # fmt: skip
    with pytest.raises(InputError, match=r"n\.jsonl, line 2: malformed JSON"):
        list(read_documents(path))
    out = tmp_path / "o.csv"
    assert main(["extract", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "line 2: malformed JSON" in err and "--skip-bad-rows" in err
    assert main(["extract", str(path), "-o", str(out), "--skip-bad-rows"]) == 0
    err = capsys.readouterr().err
    assert "skipped:" in err and "n.jsonl, line 2: malformed JSON" in err


def test_json_array_input(tmp_path):
    path = tmp_path / "n.json"
    path.write_text(json.dumps([{"id": "a", "text": "Possible pneumonia."}, 5, {"id": "c", "text": "No."}],
                               indent=2), encoding="utf-8")  # fmt: skip
    with pytest.raises(InputError, match=r"n\.json, item 2: expected a JSON object, got int"):
        list(read_documents(path))
    problems = []
    assert [d.id for d in read_documents(path, problems=problems)] == ["a", "c"]
    assert str(problems[0]).startswith(f"{path}, item 2:")


def test_empty_jsonl_and_header_only_csv_are_errors(tmp_path, capsys):
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"e\.jsonl: no rows"):
        list(read_documents(empty))
    head = tmp_path / "h.csv"
    head.write_text("id,text\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"h\.csv: no rows"):
        list(read_documents(head))
    assert main(["extract", str(empty)]) == 2
    assert "no rows" in capsys.readouterr().err


def test_score_table_bad_line_has_its_line_number(tmp_path, capsys):
    table = tmp_path / "t.jsonl"
    table.write_text(
        '{"source": "Possible pneumonia.", "output": "Pneumonia."}\n{"source": "x", "output": \n'
        '{"source": "No fever.", "output": "No fever."}\n',
        encoding="utf-8",
    )
    assert main(["score", "--table", str(table), "--n-boot", "0", "-q"]) == 2
    assert "t.jsonl, line 2: malformed JSON" in capsys.readouterr().err
    assert main(["score", "--table", str(table), "--n-boot", "0", "-q", "--skip-bad-rows"]) == 0
    assert "t.jsonl, line 2: malformed JSON" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------------
# F8 lone surrogates: one policy at every entry point


def test_lone_surrogates_raise_at_every_entry_point(tmp_path):
    bad = "Possible \ud800 pneumonia."
    with pytest.raises(ValueError, match="lone surrogate U\\+D800 at offset 9"):
        cuelex.extract(bad)
    with pytest.raises(ValueError, match="lone surrogate"):
        cuelex.assess(bad, [(0, 8)])
    with pytest.raises(ValueError, match="output contains a lone surrogate"):
        cuelex.score("Possible pneumonia.", "x\udfff")
    with pytest.raises(ValueError):  # spaCy's tokenizer refuses it first (UnicodeEncodeError)
        cuelex.load()(bad)
    frame = __import__("pandas").DataFrame(  # object dtype: pandas 3's string dtype refuses it
        {"source": ["Possible pneumonia.", bad], "output": ["a", "b"]}, dtype=object
    )
    res = cuelex.score_frame(frame, "source", "output", errors="skip", n_boot=0, progress=False)
    assert "lone surrogate" in res.problems.iloc[0]["message"]
    assert check_text("café") == "café"
    path = tmp_path / "n.jsonl"
    path.write_text(
        '{"id": 1, "text": "No \\ud800 fever."}\n{"id": 2, "text": "ok"}\n', encoding="utf-8"
    )
    with pytest.raises(InputError, match=r"line 1: field 'text' contains a lone surrogate"):
        list(read_documents(path))


# --------------------------------------------------------------------------------------------------
# F9 outputs: never an input, finished rows survive a failure, CSV cells neutralised


def test_output_equal_to_input_is_refused(tmp_path, capsys):
    src = tmp_path / "n.jsonl"
    src.write_text('{"id": 1, "text": "Possible pneumonia."}\n', encoding="utf-8")
    before = src.read_bytes()
    assert main(["extract", str(src), "-o", str(src)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert src.read_bytes() == before
    table = tmp_path / "t.csv"
    table.write_text("source,output\nPossible pneumonia.,Pneumonia.\n", encoding="utf-8")
    assert main(["score", "--table", str(table), "--pairs-out", str(table), "-q"]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err


def test_finished_rows_survive_a_failure(tmp_path, capsys):
    src = tmp_path / "n.jsonl"
    src.write_text(
        '{"id": 1, "text": "Possible pneumonia."}\n{"id": 2, "text": ]\n', encoding="utf-8"
    )
    out = tmp_path / "o.jsonl"
    assert main(["extract", str(src), "-o", str(out)]) == 2
    assert not out.exists()  # the output path only ever holds a complete result
    partial = tmp_path / "o.jsonl.partial"
    assert "in " + str(partial) in capsys.readouterr().err
    kept = [json.loads(line) for line in partial.read_text(encoding="utf-8").splitlines()]
    assert kept and kept[0]["target_text"] == "pneumonia"
    src.write_text('{"id": 1, "text": "Possible pneumonia."}\n', encoding="utf-8")
    assert main(["extract", str(src), "-o", str(out)]) == 0
    assert out.exists() and not partial.exists()


def test_csv_cells_that_look_like_formulas_are_neutralised(tmp_path):
    src = tmp_path / "n.jsonl"
    src.write_text(
        json.dumps({"id": "=HYPERLINK(1)", "text": "- possible pneumonia"}) + "\n", encoding="utf-8"
    )
    assert main(["extract", str(src), "-o", str(tmp_path / "o.csv")]) == 0
    frame = __import__("pandas").read_csv(tmp_path / "o.csv")
    assert frame.loc[0, "doc_id"] == "'=HYPERLINK(1)"
    assert frame.loc[0, "sentence"] == "'- possible pneumonia"
    assert main(["extract", str(src), "-o", str(tmp_path / "o.jsonl")]) == 0  # JSONL: unchanged
    assert (
        json.loads((tmp_path / "o.jsonl").read_text(encoding="utf-8"))["doc_id"] == "=HYPERLINK(1)"
    )
    assert [neutralize_cell(v) for v in ("@a", "+1", "\tx", "ok", 3)] == [
        "'@a",
        "'+1",
        "'\tx",
        "ok",
        3,
    ]


# --------------------------------------------------------------------------------------------------
# F10, F11 run cache: never the benchmark, never two benchmarks


def _bench(texts):
    return [{"id": f"d{i}", "text": t} for i, t in enumerate(texts)]


def _echo(prompt: str) -> str:
    return prompt.rsplit("\n\n", 1)[1]


def test_run_cache_is_never_the_benchmark_file(tmp_path):
    path = tmp_path / "bench.jsonl"
    path.write_text(
        "".join(json.dumps(d) + "\n" for d in _bench(["Possible pneumonia."])), encoding="utf-8"
    )
    before = path.read_bytes()
    with pytest.raises(ValueError, match="is the benchmark file itself"):
        runner.run(
            path,
            _echo,
            cache=path,
            name="echo",
            tasks="revision",
            conditions="baseline",
            progress=False,
        )
    assert path.read_bytes() == before


def test_cache_records_its_benchmark_and_refuses_another(tmp_path):
    cache = tmp_path / "c.jsonl"
    a = _bench(["Possible pneumonia.", "No fever."])
    runner.run(
        a, _echo, cache=cache, name="echo", tasks="revision", conditions="baseline", progress=False
    )
    docs = [json.loads(line) for line in cache.read_text(encoding="utf-8").splitlines()]
    shas = {d["benchmark_sha"] for d in docs if d["type"] == "document"}
    assert shas == {runner.benchmark_sha(runner.as_documents(a))}
    b = _bench(["Possible pneumonia.", "No fever at all."])
    with pytest.raises(ValueError, match="holds documents of another benchmark"):
        runner.run(
            b,
            _echo,
            cache=cache,
            name="echo",
            tasks="revision",
            conditions="baseline",
            progress=False,
        )
    # a cache mixed by hand (two files concatenated) is refused when scored
    other = tmp_path / "o.jsonl"
    runner.run(
        b, _echo, cache=other, name="echo", tasks="revision", conditions="baseline", progress=False
    )
    with open(cache, "a", encoding="utf-8") as fh:
        fh.write(other.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="mixes documents of 2 benchmarks"):
        runner.score_run(cache, n_boot=0)


# --------------------------------------------------------------------------------------------------
# F12 HTML


ATTACK = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>"


def test_everything_in_the_html_report_is_escaped():
    source = f"Possible pneumonia {ATTACK}."
    report = cuelex.score(source, f"Pneumonia {ATTACK}.", doc_id=ATTACK, doc_type=ATTACK, n_boot=0)
    page = render_report(report, title=ATTACK)
    assert "<script>alert" not in page and "<img src=x" not in page
    for attr in ("title", "data-ann", "data-pairs", "data-mark", "href", "class", "id"):
        for value in __import__("re").findall(rf'{attr}="([^"]*)"', page):
            assert "<" not in value and ">" not in value, (attr, value)


def test_svg_plot_with_script_is_shown_as_an_image():
    from cuelex.report import _plot_html

    html = _plot_html(
        "p", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>x</script></svg>'
    )
    assert html.startswith('<img alt="p" src="data:image/svg+xml;base64,')
    assert _plot_html("p", "<svg><text>ok</text></svg>") == "<svg><text>ok</text></svg>"


# --------------------------------------------------------------------------------------------------
# F13 HTTP client


class RawServer:
    """A TCP server on localhost that answers each connection with a scripted byte behaviour."""

    def __init__(self, behaviour):
        self.behaviour = behaviour
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.seen: list[bytes] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, rest = data.partition(b"\r\n\r\n")
                fields = [h.split(b":", 1) for h in head.split(b"\r\n")[1:]]
                length = int(next(v for k, v in fields if k.lower() == b"content-length"))
                while len(rest) < length:
                    rest += conn.recv(65536)
                self.seen.append(head)
                try:
                    self.behaviour(conn)
                except OSError:
                    pass

    def close(self):
        self.sock.close()


def _reply(content) -> bytes:
    return json.dumps(
        {"choices": [{"message": {"role": "assistant", "content": content}}]}
    ).encode()


def _headers(n: int | None) -> bytes:
    length = f"Content-Length: {n}\r\n" if n is not None else ""
    return f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{length}\r\n".encode()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)


def test_deadline_is_for_the_whole_call_not_per_read():
    body = _reply("ok")

    def drip(conn):
        conn.sendall(_headers(len(body)))
        for b in body:
            conn.sendall(bytes([b]))
            time.sleep(0.05)  # every read is quick; the whole answer takes ~1.5 s

    server = RawServer(drip)
    try:
        llm = OpenAIChat("m", server.url, timeout=0.5)
        t0 = time.monotonic()
        with pytest.raises(LLMError, match="timed out") as info:
            llm("hi")
        assert time.monotonic() - t0 < 1.2 and info.value.retryable
    finally:
        server.close()


def test_response_size_is_capped():
    server = RawServer(lambda c: c.sendall(_headers(None) + b"x" * 200_000))
    try:
        with pytest.raises(LLMError, match="100000-byte limit") as info:
            OpenAIChat("m", server.url, max_response_bytes=100_000, timeout=5)("hi")
        assert not info.value.retryable
    finally:
        server.close()


def test_every_transport_failure_is_an_llm_error():
    body = _reply("ok")
    server = RawServer(lambda c: c.sendall(_headers(len(body)) + body[:10]))  # closes mid-body
    try:
        with pytest.raises(LLMError):
            OpenAIChat("m", server.url, timeout=5)("hi")
    finally:
        server.close()
    server = RawServer(lambda c: c.sendall(b"garbage\r\n\r\n"))  # not HTTP at all
    try:
        with pytest.raises(LLMError):
            OpenAIChat("m", server.url, timeout=5)("hi")
    finally:
        server.close()


def test_api_key_is_scrubbed_from_errors_and_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUELEX_T_KEY", "sk-very-secret")

    def echo_headers(conn):
        body = b'{"error": "bad request, you sent Authorization: Bearer sk-very-secret"}'
        conn.sendall(f"HTTP/1.1 400 Bad\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)

    server = RawServer(echo_headers)
    try:
        llm = OpenAIChat("m", server.url, api_key_env="CUELEX_T_KEY", timeout=5)
        with pytest.raises(LLMError) as info:
            llm("hi")
        assert "sk-very-secret" not in str(info.value) and "***" in str(info.value)
        cache = tmp_path / "c.jsonl"
        runner.run(_bench(["Possible pneumonia."]), llm, cache=cache, tasks="revision",
                   conditions="baseline", retries=0, progress=False)  # fmt: skip
        assert "sk-very-secret" not in cache.read_text(encoding="utf-8")
        assert b"sk-very-secret" in server.seen[0]  # it was sent, as it should be
    finally:
        server.close()


def test_null_content_is_not_retried(tmp_path):
    body = _reply(None)
    server = RawServer(lambda c: c.sendall(_headers(len(body)) + body))
    try:
        llm = OpenAIChat("m", server.url, timeout=5)
        res = runner.run(_bench(["Possible pneumonia."]), llm, cache=tmp_path / "c.jsonl", tasks="revision",
                         conditions="baseline", retries=3, backoff=0.01, progress=False)  # fmt: skip
        assert res.failed == 1 and len(server.seen) == 1
    finally:
        server.close()


# --------------------------------------------------------------------------------------------------
# benchmark review CSV: formulas neutralised on export, a non-UTF-8 answer file named by byte


def test_review_csv_is_safe_and_read_back_strictly(tmp_path):
    from cuelex import bench

    notes = tmp_path / "notes.jsonl"
    text = ("- possible pneumonia in the right lower lobe.\nNo pleural effusion is seen today. Findings "
            "likely represent atelectasis of the left base. Cannot exclude a small fracture.")  # fmt: skip
    notes.write_text(
        json.dumps({"id": "d1", "text": text, "type": "note"}) + "\n", encoding="utf-8"
    )
    built = bench.build(notes, type_col="type", per_type=5)
    out = tmp_path / "review.csv"
    frame = bench.export_validation(built.documents, out, per_type=5)
    written = out.read_text(encoding="utf-8")
    first = "- possible pneumonia in the right lower lobe."
    assert f"'{first}" in written and frame.loc[0, "sentence"] == first
    filled = written.replace(",,", ",yés,", 1)
    (tmp_path / "filled.csv").write_bytes(filled.encode("cp1252"))
    with pytest.raises(bench.BenchError, match=r"not valid UTF-8 at byte \d+"):
        bench.read_validation(tmp_path / "filled.csv")


def test_every_writing_command_refuses_to_overwrite_its_input(tmp_path, capsys):
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "d1", "text": "Possible pneumonia.", "type": "note"}) + "\n", encoding="utf-8")
    before = notes.read_bytes()
    for argv in (
        ["bench", "build", str(notes), "-o", str(notes)],
        ["bench", "export-validation", str(notes), "-o", str(notes)],
        ["report", str(notes), "-o", str(notes)],
        ["bench", "score", str(notes), "-o", str(notes)],
    ):
        assert main(argv) == 2, argv
        assert "refusing to overwrite" in capsys.readouterr().err, argv
        assert notes.read_bytes() == before
