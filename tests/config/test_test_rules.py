"""The suite's own rule: a missing service or browser skips locally but fails in CI."""

import pytest

from tests.conftest import skip_or_fail


def test_a_missing_prerequisite_skips_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no browser"):
        skip_or_fail("no browser")


@pytest.mark.parametrize("value", ["true", "1", "TRUE"])
def test_a_missing_prerequisite_fails_in_ci(monkeypatch, value):
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI=true but no browser"):
        skip_or_fail("no browser")
