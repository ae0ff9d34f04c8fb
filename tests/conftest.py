"""Shared fixtures for the cuelex test suite."""

from __future__ import annotations

import pytest

import cuelex


@pytest.fixture(scope="session")
def engine():
    return cuelex.get_engine()
