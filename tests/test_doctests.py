"""The engine's examples in its docstrings (golfbox/engine/__init__.py and its modules) run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import golfbox.engine

MODULES = ["golfbox.engine"] + [f"golfbox.engine.{m.name}"
                                for m in pkgutil.iter_modules(golfbox.engine.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_the_engine_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_face_has_examples():
    assert doctest.testmod(golfbox.engine).attempted >= 10
