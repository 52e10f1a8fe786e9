"""Social accounts (channels), their toggle, and the Pinterest boards / Discord channels lookups."""

from __future__ import annotations

import builtins
from typing import Any

from pydantic import TypeAdapter, ValidationError

from app.api import routes
from app.api.parsing import unwrap_list, unwrap_object, validate
from app.api.resource import Resource
from app.models.accounts import NamedItem, SocialAccountSummary

_ACCOUNT = TypeAdapter(SocialAccountSummary)
_ACCOUNTS = TypeAdapter(list[SocialAccountSummary])
_NAMED_ITEMS = TypeAdapter(list[NamedItem])


class AccountsApi(Resource):
    async def list(self) -> builtins.list[SocialAccountSummary]:
        """Ordered by platform."""
        return await self._call(_ACCOUNTS, "GET", routes.SOCIAL_ACCOUNTS)

    async def toggle(self, account_id: str) -> SocialAccountSummary | None:
        """Flip `is_active`. The spec does not give the answer's shape: the account when the
        server sends one, else None (read the list again)."""
        data: Any = await self._send("PUT", routes.account_toggle(account_id))
        try:
            return _ACCOUNT.validate_python(
                unwrap_object(data), context={"server_tz": self._transport.server_tz}
            )
        except ValidationError:
            return None

    async def boards(self, account_id: str) -> builtins.list[NamedItem]:
        """Pinterest boards of an account (a plain array or `{data: [...]}`)."""
        return await self._named_items(routes.account_boards(account_id))

    async def channels(self, account_id: str) -> builtins.list[NamedItem]:
        """Discord channels of an account (a plain array or `{data: [...]}`)."""
        return await self._named_items(routes.account_channels(account_id))

    async def _named_items(self, path: str) -> builtins.list[NamedItem]:
        data = await self._transport.request("GET", path)
        return validate(
            _NAMED_ITEMS,
            unwrap_list(data),
            server_tz=self._transport.server_tz,
            what=f"GET {path}",
        )
