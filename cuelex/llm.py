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

Errors raise :class:`LLMError` with ``status`` (HTTP code or None) and ``retryable``: timeouts,
connection errors, 408/409/425/429 and 5xx are retryable (the runner backs off and retries; a
``Retry-After`` header is honoured); other 4xx (bad key, unknown model) are not.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

__all__ = ["LLMError", "OpenAIChat"]

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class LLMError(RuntimeError):
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
        data = json.dumps(self.request_body(prompt)).encode("utf-8")
        req = urllib.request.Request(self.url, data=data, headers=self._headers, method="POST")
        log.debug("POST %s model=%s prompt=%r", self.url, self.model, prompt)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            body = _read_quietly(exc)
            retry_after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None)
            raise LLMError(
                f"HTTP {exc.code} from {self.url}: {body[:300]}",
                status=exc.code,
                retryable=exc.code in RETRYABLE_STATUS or exc.code >= 500,
                retry_after=retry_after,
            ) from None
        except TimeoutError as exc:
            raise LLMError(f"timed out after {self.timeout:g} s ({self.url})") from exc
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise LLMError(f"timed out after {self.timeout:g} s ({self.url})") from None
            raise LLMError(f"cannot reach {self.url}: {reason}") from None
        except (ConnectionError, OSError) as exc:
            raise LLMError(f"connection error with {self.url}: {exc}") from None
        try:
            payload = json.loads(raw.decode("utf-8"))
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
            raise LLMError(
                f"unexpected response from {self.url} (no choices[0].message.content): {raw[:200]!r}",
                retryable=False,
            ) from None
        if not isinstance(content, str):
            raise LLMError(f"empty reply from {self.url} (content is {content!r})", retryable=True)
        log.debug("reply from %s: %r", self.url, content)
        return content


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
