"""Every docstring example in the package runs."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.test_layers import modules

NAMES = [name for name, _ in modules() if not name.startswith(("mvdd.spark", "mvdd.cli"))]


@pytest.mark.parametrize("name", NAMES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
