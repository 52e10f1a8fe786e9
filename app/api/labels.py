"""Labels: a plain list, latest first; create answers 201 with the label.

A label whose name or colour cannot be read is kept, its name shown as "(unreadable)"
(`app.api.parsing` mends it): posts carry it by id, so the calendar's filter must still offer
it, and the Labels page is where the user gives it a name again.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from app.api import routes
from app.api.resource import Resource
from app.models.labels import Label
from app.models.requests import LabelInput

_LABEL = TypeAdapter(Label)
_LABELS = TypeAdapter(list[Label])


class LabelsApi(Resource):
    async def list(self) -> list[Label]:
        """Raises `NotFound(route_missing=True)` on deployments without labels."""
        return await self._call(_LABELS, "GET", routes.LABELS, mend=True)

    async def create(self, label: LabelInput) -> Label:
        return await self._call(_LABEL, "POST", routes.LABELS, body=self._wire(label))

    async def update(self, label_id: str, label: LabelInput) -> Label:
        return await self._call(_LABEL, "PUT", routes.label(label_id), body=self._wire(label))

    async def delete(self, label_id: str) -> None:
        await self._send("DELETE", routes.label(label_id))
