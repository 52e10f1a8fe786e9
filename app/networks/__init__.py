"""Per-network rules in one declarative table (content types, text limits, settings, media).

It drives the composer forms, the local checks and the sandbox alike. No Qt, no HTTP here;
`discovery.compare_content_types` cross-checks the table against `GET /content-types`.
"""

from app.networks.rules import (
    ALL_CONTENT_TYPES,
    Choice,
    ContentType,
    FieldKind,
    MediaRules,
    MetaField,
    Network,
)
from app.networks.table import (
    NETWORKS,
    PLATFORMS,
    TIKTOK_PRIVACY_LEVELS,
    audio_unavailable_reason,
    find_network,
    media_type_for,
    network,
)
from app.networks.validate import (
    MediaFacts,
    Problem,
    check_media,
    check_meta,
    has_text,
    missing_required,
    text_length,
    validate_destination,
)

__all__ = [
    "ALL_CONTENT_TYPES",
    "NETWORKS",
    "PLATFORMS",
    "TIKTOK_PRIVACY_LEVELS",
    "Choice",
    "ContentType",
    "FieldKind",
    "MediaFacts",
    "MediaRules",
    "MetaField",
    "Network",
    "Problem",
    "audio_unavailable_reason",
    "check_media",
    "check_meta",
    "find_network",
    "has_text",
    "media_type_for",
    "missing_required",
    "network",
    "text_length",
    "validate_destination",
]
