"""Labels (plain array, latest first) and signatures (paginated 25, newest first)."""

from __future__ import annotations

import httpx
import pytest

from app.sandbox.harness import SandboxServer


def test_label_lifecycle(api: httpx.Client) -> None:
    created = api.post("/labels", json={"name": "Promo", "color": "#FF8800"})
    assert created.status_code == 201
    label = created.json()
    assert set(label) == {"id", "name", "color", "created_at", "updated_at"}
    assert (label["name"], label["color"]) == ("Promo", "#FF8800")
    second = api.post("/labels", json={"name": "Events", "color": "#00aa11"}).json()
    listed = api.get("/labels").json()
    assert isinstance(listed, list)
    assert [lb["id"] for lb in listed] == [second["id"], label["id"]]

    updated = api.put(f"/labels/{label['id']}", json={"name": "Sale", "color": "#000000"})
    assert updated.status_code == 200
    assert updated.json()["name"] == "Sale"
    assert api.delete(f"/labels/{label['id']}").status_code == 204
    assert [lb["id"] for lb in api.get("/labels").json()] == [second["id"]]
    assert api.delete(f"/labels/{label['id']}").status_code == 404


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({}, {"name": ["The name field is required."], "color": ["The color field is required."]}),
        ({"name": "x" * 256, "color": "#123456"},
         {"name": ["The name field must not be greater than 255 characters."]}),
        ({"name": "ok", "color": "red"}, {"color": ["The color field format is invalid."]}),
        ({"name": "ok", "color": "#12345"}, {"color": ["The color field format is invalid."]}),
        ({"name": 5, "color": "#123456"}, {"name": ["The name field must be a string."]}),
    ],
)  # fmt: skip
def test_label_validation(
    api: httpx.Client, body: dict[str, object], errors: dict[str, list[str]]
) -> None:
    response = api.post("/labels", json=body)
    assert response.status_code == 422
    assert response.json()["errors"] == errors
    assert api.get("/labels").json() == []


def test_label_update_needs_both_fields(api: httpx.Client) -> None:
    label = api.post("/labels", json={"name": "A", "color": "#111111"}).json()
    response = api.put(f"/labels/{label['id']}", json={"name": "B"})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["color"]
    assert response.json()["message"] == "The color field is required."


def test_name_of_exactly_255_is_fine(api: httpx.Client) -> None:
    assert api.post("/labels", json={"name": "x" * 255, "color": "#abcdef"}).status_code == 201


def test_deleting_a_label_detaches_it_from_posts(api: httpx.Client, sandbox: SandboxServer) -> None:
    label = api.post("/labels", json={"name": "A", "color": "#111111"}).json()
    [post] = sandbox.store.insert_posts(1, label_ids=[label["id"]])
    api.delete(f"/labels/{label['id']}")
    assert api.get(f"/posts/{post}").json()["labels"] == []


def test_signatures_paginate_by_25_newest_first(api: httpx.Client, sandbox: SandboxServer) -> None:
    ids = [sandbox.store.create_signature(f"S{n}", f"Body {n}") for n in range(27)]
    first = api.get("/signatures").json()
    assert first["meta"]["per_page"] == 25
    assert first["meta"]["total"] == 27
    assert first["meta"]["last_page"] == 2
    assert [s["id"] for s in first["data"]] == list(reversed(ids))[:25]
    second = api.get("/signatures", params={"page": 2}).json()
    assert [s["id"] for s in second["data"]] == [ids[1], ids[0]]
    assert set(second["data"][0]) == {"id", "name", "content", "created_at", "updated_at"}


def test_signature_lifecycle_and_validation(api: httpx.Client) -> None:
    created = api.post("/signatures", json={"name": "Sign-off", "content": "— Team"})
    assert created.status_code == 201
    sig = created.json()
    assert sig["content"] == "— Team"
    missing = api.put(f"/signatures/{sig['id']}", json={"name": "Only name"})
    assert missing.status_code == 422
    assert missing.json()["errors"] == {"content": ["The content field is required."]}
    updated = api.put(f"/signatures/{sig['id']}", json={"name": "N", "content": "C"})
    assert updated.json()["name"] == "N"
    assert api.delete(f"/signatures/{sig['id']}").status_code == 204
    assert api.get("/signatures").json()["data"] == []
    assert api.post("/signatures", json={}).json()["message"] == (
        "The name field is required. (and 1 more error)"
    )
