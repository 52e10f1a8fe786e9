"""pydantic v2 wire models for the Social Publishing API. No Qt, no HTTP."""

from app.domain.enums import (
    AccountStatus,
    AudioType,
    MediaType,
    Platform,
    PlatformStatus,
    PostStatus,
    QueuePlacement,
    RepurposeItemStatus,
    RepurposeReason,
    WebhookEvent,
    WebhookStatus,
    describe,
    known,
)
from app.models.accounts import NamedItem, SocialAccountSummary
from app.models.audio import AudioAsset
from app.models.base import (
    RestDateTime,
    WireModel,
    format_rest_datetime,
    parse_rest_datetime,
)
from app.models.labels import Label, Signature
from app.models.pagination import Page, PageLinks, PageMeta
from app.models.posts import Author, BatchResponse, MediaItem, Post, PostPlatform
from app.models.repurposes import Replica, Repurpose, RepurposeItem
from app.models.requests import (
    BatchRequest,
    Destination,
    LabelInput,
    MediaRef,
    PlatformToggle,
    PostUpdate,
    SignatureInput,
    WebhookInput,
    WebhookUpdate,
)
from app.models.unreadable import ItemList, UnreadableItem
from app.models.webhooks import (
    DeletedPostPayload,
    DeliveryLog,
    PostPayload,
    TestPingResult,
    Webhook,
    WebhookEnvelope,
)

__all__ = [
    "AccountStatus",
    "AudioAsset",
    "AudioType",
    "Author",
    "BatchRequest",
    "BatchResponse",
    "DeletedPostPayload",
    "DeliveryLog",
    "Destination",
    "ItemList",
    "Label",
    "LabelInput",
    "MediaItem",
    "MediaRef",
    "MediaType",
    "NamedItem",
    "Page",
    "PageLinks",
    "PageMeta",
    "Platform",
    "PlatformStatus",
    "PlatformToggle",
    "Post",
    "PostPayload",
    "PostPlatform",
    "PostStatus",
    "PostUpdate",
    "QueuePlacement",
    "Replica",
    "Repurpose",
    "RepurposeItem",
    "RepurposeItemStatus",
    "RepurposeReason",
    "RestDateTime",
    "Signature",
    "SignatureInput",
    "SocialAccountSummary",
    "TestPingResult",
    "UnreadableItem",
    "Webhook",
    "WebhookEnvelope",
    "WebhookEvent",
    "WebhookInput",
    "WebhookStatus",
    "WebhookUpdate",
    "WireModel",
    "describe",
    "format_rest_datetime",
    "known",
    "parse_rest_datetime",
]
