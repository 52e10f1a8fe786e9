"""Every path the client calls, relative to the base URL (which ends in `/api`).

Identifiers are percent-encoded so that an id can never change the path it lands on.
Webhook routes beyond the spec's list, and `/uploads`, follow DESIGN.md.
"""

from __future__ import annotations

from urllib.parse import quote


def _seg(value: str) -> str:
    return quote(str(value), safe="")


# Posts
POSTS = "/posts"
POSTS_BATCH = "/posts/batch"


def post(post_id: str) -> str:
    return f"/posts/{_seg(post_id)}"


# Labels and signatures
LABELS = "/labels"
SIGNATURES = "/signatures"


def label(label_id: str) -> str:
    return f"/labels/{_seg(label_id)}"


def signature(signature_id: str) -> str:
    return f"/signatures/{_seg(signature_id)}"


# Social accounts
SOCIAL_ACCOUNTS = "/social-accounts"


def account_toggle(account_id: str) -> str:
    return f"/social-accounts/{_seg(account_id)}/toggle"


def account_audio(account_id: str) -> str:
    return f"/social-accounts/{_seg(account_id)}/instagram-audio"


def is_audio_lookup(path: str) -> bool:
    """Whether `path` is the audio search, whose lookup budget has 429s of its own (spec §8)."""
    return path.startswith("/social-accounts/") and path.endswith("/instagram-audio")


def account_audio_track(account_id: str, audio_id: str) -> str:
    """One track again, with fresh links (shape not in the spec; DESIGN.md)."""
    return f"/social-accounts/{_seg(account_id)}/instagram-audio/{_seg(audio_id)}"


def account_boards(account_id: str) -> str:
    return f"/social-accounts/{_seg(account_id)}/boards"


def account_channels(account_id: str) -> str:
    return f"/social-accounts/{_seg(account_id)}/channels"


# Webhooks
WEBHOOKS = "/webhooks"


def webhook(webhook_id: str) -> str:
    return f"/webhooks/{_seg(webhook_id)}"


def webhook_rotate_secret(webhook_id: str) -> str:
    return f"/webhooks/{_seg(webhook_id)}/rotate-secret"


def webhook_test(webhook_id: str) -> str:
    return f"/webhooks/{_seg(webhook_id)}/test"


def webhook_logs(webhook_id: str) -> str:
    return f"/webhooks/{_seg(webhook_id)}/logs"


def webhook_log_replay(webhook_id: str, log_id: str) -> str:
    return f"/webhooks/{_seg(webhook_id)}/logs/{_seg(log_id)}/replay"


# Repurposes
REPURPOSES = "/repurposes"


def repurpose_items(repurpose_id: str) -> str:
    return f"/repurposes/{_seg(repurpose_id)}/items"


# Workspace and capabilities
WORKSPACE = "/workspace"
CONTENT_TYPES = "/content-types"

# Media
UPLOADS = "/uploads"

REDUCED_ROUTE_SET = frozenset({LABELS, SIGNATURES, REPURPOSES, WORKSPACE, CONTENT_TYPES})
"""Collection routes some deployments lack; a 404 there means "no such feature here"."""
