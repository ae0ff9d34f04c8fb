"""A system for :func:`cuelex.runner.run`: an OpenAI-compatible chat-completions endpoint.

vLLM, Ollama, llama.cpp server, Groq, OpenAI, Together and others speak the same protocol::

    from cuelex.llm import OpenAIChat
    gpt = OpenAIChat(model="gpt-oss-120b", base_url="https://api.groq.com/openai/v1",
                     api_key_env="GROQ_API_KEY")
    gpt("Summarize: Possible pneumonia.")      # one POST to {base_url}/chat/completions

Standard library only (``urllib.request``). Nothing is sent anywhere unless you pass a
``base_url``: there is no default endpoint. The key is read from the environment variable you
name (``api_key_env``) when the adapter is created and is never stored in the cache or the system
name. Temperature 0 by default. Prompts and answers (clinical text) are logged at DEBUG only.

``timeout`` is a deadline for the whole call (connect, send, and every byte of the answer), not
per read: a server that drips its answer is cut off when it passes. A response larger than
``max_response_bytes`` (default 8 MiB) is refused. Every failure raises :class:`LLMError` (never a
raw socket, SSL or ``http.client`` exception) with ``status`` (HTTP code or None) and
``retryable``: timeouts, transport errors, 408/409/425/429 and 5xx are retryable (the runner backs
off and retries; a ``Retry-After`` header is honoured); other 4xx (bad key, unknown model), an
over-long or malformed response and a reply without text (``content: null``) are not. The API key
is replaced by ``***`` in every error message (a server may echo request headers), so it never
reaches the run cache or a log.
"""

from __future__ import annotations

import functools
import http.client
import json
import logging
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

from ..errors import CuelexError

log = logging.getLogger(__name__)

__all__ = ["LLMError", "OpenAIChat"]

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class LLMError(CuelexError, RuntimeError):
    """A failed call: ``status`` is the HTTP status (None for network errors and timeouts)."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = True,
                 retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


class OpenAIChat:
    """``Callable[[str], str]``: sends the prompt as one user message and returns the reply text.

    ``system_prompt`` adds a system message; ``extra_body`` is merged into the request JSON
    (e.g. ``{"seed": 0}`` or provider options). ``name`` (default ``openai:MODEL``) is what the
    runner caches results under.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None = None,
        temperature: float = 0.0,
        timeout: float = 120.0,
        max_response_bytes: int = 8 * 1024 * 1024,
        max_tokens: int | None = None,
        system_prompt: str | None = None,
        extra_body: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        name: str | None = None,
    ):
        if not isinstance(model, str) or not model.strip():
            raise ValueError("model must be a non-empty model name")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout!r}")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url if self.base_url.endswith("/chat/completions") else self.base_url + "/chat/completions"
        self.temperature = float(temperature)
        self.timeout = float(timeout)
        if max_response_bytes < 1:
            raise ValueError(f"max_response_bytes must be >= 1, got {max_response_bytes!r}")
        self.max_response_bytes = int(max_response_bytes)
        self.max_tokens = max_tokens
        self.system_prompt = system_prompt
        self.extra_body = dict(extra_body or {})
        self._headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        self.api_key_env = api_key_env
        if api_key_env:
            key = os.environ.get(api_key_env)
            if not key:
                raise ValueError(f"environment variable {api_key_env} (api_key_env) is not set or empty")
            self._headers["Authorization"] = f"Bearer {key}"
        self.name = name or f"openai:{model}"

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIChat(model={self.model!r}, url={self.url!r}, name={self.name!r})"

    def request_body(self, prompt: str) -> dict[str, Any]:
        messages = []
        if self.system_prompt:
            messages.append({"role": "system", "content": self.system_prompt})
        messages.append({"role": "user", "content": prompt})
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        body.update(self.extra_body)
        return body

    def __call__(self, prompt: str) -> str:
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be text, got {type(prompt).__name__}")
        try:
            return self._call(prompt)
        except LLMError as exc:
            raise LLMError(
                self._scrub(str(exc)), status=exc.status, retryable=exc.retryable,
                retry_after=exc.retry_after,
            ) from None

    def _scrub(self, text: str) -> str:
        """``text`` with the API key (should a server echo it) replaced by ``***``."""
        key = self._headers.get("Authorization", "").removeprefix("Bearer ")
        return text.replace(key, "***") if key else text

    def _call(self, prompt: str) -> str:
        data = json.dumps(self.request_body(prompt)).encode("utf-8")
        req = urllib.request.Request(self.url, data=data, headers=self._headers, method="POST")
        log.debug("POST %s model=%s prompt=%r", self.url, self.model, prompt)
        deadline = _Deadline(self.timeout)
        opener = urllib.request.build_opener(
            _DeadlineHTTPHandler(deadline), _DeadlineHTTPSHandler(deadline)
        )
        try:
            with deadline, opener.open(req, timeout=self.timeout) as resp:
                raw = _read_capped(resp, self.max_response_bytes, deadline, self.url)
        except LLMError:
            raise
        except urllib.error.HTTPError as exc:
            body = _read_quietly(exc)
            retry_after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None)
            raise LLMError(
                f"HTTP {exc.code} from {self.url}: {body[:300]}",
                status=exc.code,
                retryable=exc.code in RETRYABLE_STATUS or exc.code >= 500,
                retry_after=retry_after,
            ) from None
        except Exception as exc:  # every transport failure becomes the library's error
            if deadline.expired or isinstance(exc, TimeoutError) or isinstance(
                getattr(exc, "reason", None), TimeoutError
            ):
                raise LLMError(f"timed out: no complete answer within {self.timeout:g} s ({self.url})") from None
            reason = getattr(exc, "reason", exc)
            raise LLMError(
                f"cannot reach {self.url} (transport error {type(reason).__name__}: {reason})"
            ) from None
        try:
            payload = json.loads(raw.decode("utf-8"))
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
            raise LLMError(
                f"unexpected response from {self.url} (no choices[0].message.content): {raw[:200]!r}",
                retryable=False,
            ) from None
        if not isinstance(content, str):
            # content null: the model produced no text (e.g. only a refusal or a tool call); asking
            # again at temperature 0 gives the same, so it is not retried
            raise LLMError(
                f"empty reply from {self.url} (content is {content!r})", retryable=False
            )
        log.debug("reply from %s: %r", self.url, content)
        return content


class _Deadline:
    """A wall-clock limit for a whole call: when it passes, the call's sockets are shut down, so a
    server that drips its answer a byte at a time cannot hold the call beyond it."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self.end = 0.0

    def __enter__(self) -> _Deadline:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._timer.cancel()

    def start(self) -> None:
        if self.end == 0.0:
            self.end = time.monotonic() + self.seconds
            self._timer.start()

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic()) if self.end else self.seconds

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            if sock is None:
                return
            self._socks.append(sock)
            if self.expired:
                _shutdown(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shutdown(sock)


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _DeadlineConnection:
    """Mixin: the connection's socket is watched by the call's deadline once it is connected."""

    def __init__(self, *args: Any, deadline: _Deadline, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        self._deadline.watch(self.sock)  # type: ignore[attr-defined]


class _DeadlineHTTPConnection(_DeadlineConnection, http.client.HTTPConnection):
    pass


class _DeadlineHTTPSConnection(_DeadlineConnection, http.client.HTTPSConnection):
    pass


class _DeadlineHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> Any:
        self.deadline.start()
        return self.do_open(functools.partial(_DeadlineHTTPConnection, deadline=self.deadline), req)


class _DeadlineHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> Any:
        self.deadline.start()
        return self.do_open(
            functools.partial(_DeadlineHTTPSConnection, deadline=self.deadline), req,
            context=self._context,
        )


def _read_capped(resp: Any, limit: int, deadline: _Deadline, url: str) -> bytes:
    """The response body, refusing one larger than ``limit`` bytes or one past the deadline."""
    length = resp.headers.get("Content-Length") if resp.headers else None
    if length and length.isdigit() and int(length) > limit:
        raise LLMError(
            f"response from {url} is {int(length)} bytes, more than the {limit}-byte limit "
            "(max_response_bytes)", retryable=False,
        )
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
        if deadline.expired:
            raise LLMError(f"timed out: no complete answer within {deadline.seconds:g} s ({url})")
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise LLMError(
                f"response from {url} exceeds the {limit}-byte limit (max_response_bytes)",
                retryable=False,
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _read_quietly(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read().decode("utf-8", "replace")
    except Exception:
        return ""


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None
