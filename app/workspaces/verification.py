"""Connecting a workspace: check that a base URL and key reach the API before anything is saved."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from app.api.client import ApiClient


async def verify_workspace(base_url: str, api_key: str, server_timezone: str = "UTC") -> None:
    """Raises the typed ApiError (401/402/403/connection...) that explains what is wrong."""
    async with ApiClient(base_url, api_key, server_tz=ZoneInfo(server_timezone)) as client:
        await client.check_connection()
