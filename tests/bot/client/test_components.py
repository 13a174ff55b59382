"""A click's gateway event keeps only the clicked component of its message (`bot.client.components`)."""

from __future__ import annotations

import copy
from typing import Any

from bot.client.components import _keep_clicked


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": custom_id, "custom_id": custom_id}


SELECT = {"type": 3, "custom_id": "unos:h:1:2:a", "options": [{"label": "x", "value": "x"}]}
HAND = [  # a Components V2 hand: a container of text, a section with a button, rows
    {
        "type": 17,
        "components": [
            {"type": 10, "content": "Your hand"},
            {
                "type": 9,
                "components": [{"type": 10, "content": "Top card"}],
                "accessory": _button("uno:h:1:2:r"),
            },
            {"type": 1, "components": [_button("uno:h:1:2:a:draw"), _button("uno:h:1:2:pic")]},
            {"type": 1, "components": [SELECT]},
        ],
    },
    {"type": 1, "components": [_button("uno:h:1:2:a:play red 5")]},
]


def _click(component_type: int, custom_id: str, interaction_type: int = 3) -> dict[str, Any]:
    return {
        "type": interaction_type,
        "data": {"component_type": component_type, "custom_id": custom_id},
        "message": {"id": "9", "flags": 32768, "components": copy.deepcopy(HAND)},
    }


def test_only_the_clicked_component_is_kept_wherever_it_sits() -> None:
    for kind, custom_id, expected in [
        (2, "uno:h:1:2:r", _button("uno:h:1:2:r")),  # a section's accessory
        (2, "uno:h:1:2:pic", _button("uno:h:1:2:pic")),  # a row in a container
        (2, "uno:h:1:2:a:play red 5", _button("uno:h:1:2:a:play red 5")),  # a top-level row
        (3, "unos:h:1:2:a", SELECT),  # a select, with its options
    ]:
        data = _click(kind, custom_id)
        _keep_clicked(data)
        assert data["message"]["components"] == [expected]
        assert data["message"]["id"] == "9"


def test_a_component_not_in_the_message_leaves_none() -> None:
    for kind, custom_id in [(2, "uno:h:1:2:forged"), (3, "uno:h:1:2:r")]:  # unknown id; wrong type
        data = _click(kind, custom_id)
        _keep_clicked(data)
        assert data["message"]["components"] == []


def test_other_interactions_are_left_as_they_are() -> None:
    for data in [_click(2, "uno:h:1:2:r", interaction_type=2), {"type": 3, "data": {}}, {"type": 2}]:
        before = copy.deepcopy(data)
        _keep_clicked(data)
        assert data == before
