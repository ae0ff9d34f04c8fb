"""cuelex.llm.OpenAIChat against a real HTTP server on localhost (http.server, started here)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cuelex import runner
from cuelex.llm import LLMError, OpenAIChat


class FakeEndpoint:
    """An OpenAI-compatible /v1/chat/completions whose behaviour each test scripts."""

    def __init__(self):
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.script: list = []  # per request: "ok", ("status", code), ("sleep", s), ("raw", bytes)
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(n))
                with outer.lock:
                    outer.requests.append(body)
                    outer.headers.append(dict(self.headers))
                    action = outer.script.pop(0) if outer.script else "ok"
                if self.path != "/v1/chat/completions":
                    return self._send(404, b'{"error": "not found"}')
                if isinstance(action, tuple) and action[0] == "status":
                    return self._send(action[1], b'{"error": {"message": "scripted failure"}}',
                                      {"Retry-After": "0"} if action[1] == 429 else None)
                if isinstance(action, tuple) and action[0] == "sleep":
                    time.sleep(action[1])
                if isinstance(action, tuple) and action[0] == "raw":
                    return self._send(200, action[1])
                user = body["messages"][-1]["content"]
                reply = {
                    "id": "x", "object": "chat.completion", "model": body["model"],
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ECHO " + user},
                                 "finish_reason": "stop"}],
                }
                self._send(200, json.dumps(reply).encode())

            def _send(self, code, payload, headers=None):
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    with FakeEndpoint() as ep:
        yield ep


def test_request_shape_and_reply(endpoint, monkeypatch):
    monkeypatch.setenv("CUELEX_TEST_KEY", "sk-secret")
    llm = OpenAIChat("tiny-model", endpoint.url, api_key_env="CUELEX_TEST_KEY", max_tokens=50,
                     system_prompt="be brief")
    assert llm("Possible pneumonia.") == "ECHO Possible pneumonia."
    req = endpoint.requests[0]
    assert req["model"] == "tiny-model" and req["temperature"] == 0.0 and req["max_tokens"] == 50
    assert req["messages"] == [{"role": "system", "content": "be brief"},
                               {"role": "user", "content": "Possible pneumonia."}]
    assert endpoint.headers[0]["Authorization"] == "Bearer sk-secret"
    assert llm.name == "openai:tiny-model" and "sk-secret" not in repr(llm)


def test_no_key_no_authorization_header_and_config_errors(endpoint, monkeypatch):
    OpenAIChat("m", endpoint.url)("x")
    assert "Authorization" not in endpoint.headers[0]
    monkeypatch.delenv("CUELEX_MISSING_KEY", raising=False)
    with pytest.raises(ValueError, match="CUELEX_MISSING_KEY"):
        OpenAIChat("m", endpoint.url, api_key_env="CUELEX_MISSING_KEY")
    with pytest.raises(ValueError, match="http"):
        OpenAIChat("m", "file:///etc/passwd")


def test_http_errors_classified(endpoint):
    llm = OpenAIChat("m", endpoint.url)
    endpoint.script = [("status", 500), ("status", 401), ("status", 429), ("raw", b"not json")]
    with pytest.raises(LLMError) as e500:
        llm("a")
    assert e500.value.status == 500 and e500.value.retryable
    with pytest.raises(LLMError) as e401:
        llm("a")
    assert e401.value.status == 401 and not e401.value.retryable
    with pytest.raises(LLMError) as e429:
        llm("a")
    assert e429.value.retryable and e429.value.retry_after == 0.0
    with pytest.raises(LLMError, match="unexpected response"):
        llm("a")
    with pytest.raises(LLMError, match="404"):
        OpenAIChat("m", endpoint.url.replace("/v1", "/v2"))("a")


def test_unreachable_endpoint():
    with ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler) as s:
        port = s.server_address[1]
    with pytest.raises(LLMError, match="cannot reach") as exc:
        OpenAIChat("m", f"http://127.0.0.1:{port}/v1", timeout=2)("a")
    assert exc.value.retryable


DOCS = [{"id": f"d{i}", "text": f"Possible pneumonia {i}."} for i in range(4)]


def test_runner_retries_500_then_succeeds(endpoint, tmp_path):
    endpoint.script = [("status", 500), ("status", 503)]
    llm = OpenAIChat("m", endpoint.url, timeout=5)
    res = runner.run(DOCS[:1], llm, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                     retries=3, backoff=0.01, progress=False)
    assert (res.called, res.failed) == (1, 0)
    rec = res.records.iloc[0]
    assert rec["status"] == "ok" and rec["attempts"] == 3 and rec["output"].startswith("ECHO ")
    assert len(endpoint.requests) == 3
    assert rec["system"] == "openai:m"


def test_runner_timeout_recorded_failed_and_run_goes_on(endpoint, tmp_path):
    # the first document's calls hang longer than the timeout every time; the others answer
    endpoint.script = [("sleep", 1.0)] * 2
    llm = OpenAIChat("m", endpoint.url, timeout=0.3)
    res = runner.run(DOCS, llm, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                     retries=1, backoff=0.01, max_workers=1, progress=False)
    assert (res.called, res.failed) == (4, 1)
    bad = res.records[res.records["status"] == "failed"].iloc[0]
    assert bad["doc_id"] == "d0" and "timed out" in bad["error"] and bad["attempts"] == 2
    assert (res.records["status"] == "ok").sum() == 3
    # rerun: only the failed key is called again, and now it answers
    again = runner.run(DOCS, llm, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                       progress=False)
    assert (again.called, again.cached, again.failed) == (1, 3, 0)


def test_runner_does_not_retry_401(endpoint, tmp_path):
    endpoint.script = [("status", 401)] * 5
    llm = OpenAIChat("m", endpoint.url)
    res = runner.run(DOCS[:1], llm, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                     retries=3, backoff=0.01, progress=False)
    assert res.failed == 1 and len(endpoint.requests) == 1
    assert "HTTP 401" in res.records.iloc[0]["error"]


def test_concurrent_calls(endpoint, tmp_path):
    llm = OpenAIChat("m", endpoint.url)
    docs = [{"id": f"d{i}", "text": f"Possible pneumonia {i}."} for i in range(12)]
    res = runner.run(docs, llm, cache=tmp_path / "c.jsonl", max_workers=4, progress=False)
    assert (res.called, res.failed) == (48, 0) and len(endpoint.requests) == 48
