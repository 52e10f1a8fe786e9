"""The `--base-url` workspace's id names its cache file: it must stay the same across versions."""

from __future__ import annotations

import hashlib

from ui.shell.first_workspace import profile_for_base_url


def test_a_base_url_workspace_keeps_the_id_that_names_its_cache() -> None:
    for url in ("http://127.0.0.1:8080/api", "https://publish.example.com/api/v1"):
        profile = profile_for_base_url(url, "UTC")
        expected = hashlib.sha256(profile.base_url.encode()).hexdigest()[:12]
        assert profile.id == f"url-{expected}"
    assert profile_for_base_url("http://127.0.0.1:9/api", "UTC").id == "url-" + ("cdcc37da7758")
