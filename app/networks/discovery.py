"""Cross-check of the table against a deployment's `GET /content-types` (shape not in the spec).

Entries are read tolerantly: a bare string (`"x_post"`), or an object with the content type under
`id`/`content_type` and optionally `platform` and `required_meta` (what the sandbox sends). The
caller treats a 404 (`NotFound.route_missing`) as "not offered" and keeps the table as is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.networks.table import NETWORKS


@dataclass(frozen=True)
class ContentTypeDifferences:
    """`unknown_here`: offered by the server, not in our table (the composer cannot offer
    them); `not_offered`: in our table, not on the server; `required_meta`: content type ->
    (server's keys, ours) where both name them and they differ."""

    unknown_here: list[str] = field(default_factory=list)
    not_offered: list[str] = field(default_factory=list)
    required_meta: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)

    @property
    def none(self) -> bool:
        return not (self.unknown_here or self.not_offered or self.required_meta)

    def describe(self) -> list[str]:
        """One plain sentence per difference, for a log or a details box."""
        lines = [
            f"The server offers {ct}, which this app does not know." for ct in self.unknown_here
        ]
        lines += [f"The server does not list {ct}." for ct in self.not_offered]
        lines += [
            f"{ct}: the server requires {', '.join(theirs) or 'no settings'}, "
            f"this app {', '.join(ours) or 'none'}."
            for ct, (theirs, ours) in self.required_meta.items()
        ]
        return lines


def _entry(raw: Any) -> tuple[str | None, list[str] | None]:
    if isinstance(raw, str):
        return raw, None
    if hasattr(raw, "model_dump"):
        raw = raw.model_dump()
    if not isinstance(raw, dict):
        return None, None
    value = raw.get("content_type") or raw.get("id") or raw.get("value")
    required = raw.get("required_meta")
    keys = [k for k in required if isinstance(k, str)] if isinstance(required, list) else None
    return (value if isinstance(value, str) else None), keys


def compare_content_types(server_entries: Iterable[Any]) -> ContentTypeDifferences:
    """Differences between `GET /content-types` and the table (see the class)."""
    ours: dict[str, list[str]] = {}
    for net in NETWORKS.values():
        for ct in net.content_types:
            ours[ct.value] = [f.key for f in net.meta_fields if f.required(ct.value)]
    theirs: dict[str, list[str] | None] = {}
    for raw in server_entries:
        value, keys = _entry(raw)
        if value is not None:
            theirs[value] = keys
    required = {
        ct: (sorted(keys), sorted(ours[ct]))
        for ct, keys in theirs.items()
        if keys is not None and ct in ours and sorted(keys) != sorted(ours[ct])
    }
    return ContentTypeDifferences(
        unknown_here=sorted(set(theirs) - set(ours)),
        not_offered=sorted(set(ours) - set(theirs)),
        required_meta=required,
    )
