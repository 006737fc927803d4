"""The examples in the library's docstrings are part of its documentation: they
must run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["ddzrules", "ddzrules.cards", "ddzrules.spec.patterns", "ddzrules.spec", "ddzrules.spec.loading",
           "ddzrules.spec.names", "ddzrules.spec.model", "ddzrules.rules.moves", "ddzrules.rules.variant",
           "ddzrules.rules.compiler", "ddzrules.conformance", "ddzrules.rules.wild", "ddzrules.rules.wild_walk",
           "ddzrules.speed.memo"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"
