"""Every platform identifier the spec lists is named once (`app.domain.enums`) and has, from
there, a display name, an icon and an entry in the network table (issue 18 §3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.domain.enums import PLATFORM_NAMES, Platform, platform_name
from app.networks import NETWORKS, PLATFORMS, network
from ui.icons import UNKNOWN_NETWORK, icon_path, network_icon_name, network_name

SPEC = Path(__file__).resolve().parents[2] / "docs" / "social-publishing-api.md"


def spec_platforms() -> list[str]:
    """The identifiers in the spec's "Platform identifiers" section, in its order."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("### Platform identifiers", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"`([a-z0-9-]+)`", section)


def test_the_spec_lists_exactly_the_platforms_of_the_domain_enum() -> None:
    listed = spec_platforms()
    assert len(listed) >= 14  # the section was found and read
    assert listed == [platform.value for platform in Platform]


@pytest.mark.parametrize("identifier", spec_platforms())
def test_every_spec_platform_has_a_name_an_icon_and_a_table_entry(identifier: str) -> None:
    platform = Platform(identifier)
    name = PLATFORM_NAMES[platform]
    assert name.strip()
    assert platform_name(identifier) == network_name(identifier) == name
    assert network(identifier).name == name  # the table's name is the domain's
    assert network_icon_name(identifier) == identifier != UNKNOWN_NETWORK
    assert icon_path(identifier).is_file()


def test_the_table_follows_the_domain_order_and_nothing_else() -> None:
    assert tuple(platform.value for platform in Platform) == PLATFORMS
    assert tuple(NETWORKS) == PLATFORMS
    assert set(PLATFORM_NAMES) == set(Platform)
    assert len(set(PLATFORM_NAMES.values())) == len(PLATFORM_NAMES)  # no two look alike


def test_unknown_and_missing_identifiers_are_shown_as_they_came() -> None:
    assert platform_name("myspace") == "myspace"
    assert platform_name(None) == platform_name("") == "Unknown network"
    assert network_icon_name("myspace") == UNKNOWN_NETWORK
