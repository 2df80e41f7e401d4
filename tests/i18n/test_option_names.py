"""Every option a refusal names is named in the member's language: no call to a check of
:mod:`cogs.validation` passes a plain string as the option's name ("The note" read in
English inside a German sentence)."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"

# Where each check takes the option's name: its position, or its keyword.
NAMED: dict[str, int | str] = {
    "check_choice": 1,
    "check_flag": 1,
    "check_id": 1,
    "check_text": 1,
    "Setting": 0,
    "parse_amount": "what",
}


def plain_names(source: str) -> list[int]:
    """The lines of ``source`` where a check is given its option's name as a string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        where = NAMED.get(called)
        if isinstance(where, int):
            named = node.args[where : where + 1]
        else:
            named = [k.value for k in node.keywords if k.arg == where]
        if any(
            isinstance(a, ast.JoinedStr)
            or (isinstance(a, ast.Constant) and isinstance(a.value, str))
            for a in named
        ):
            found.append(node.lineno)
    return found


def test_the_scan_sees_a_plain_name() -> None:
    source = (
        'validation.check_text(note, "The note", 200)\n'
        'parse_amount(text, what=f"The {x}")\n'
        "check_flag(coach, validation.option('coach'))\n"
        "validation.check_choice(level, LEVEL, ('a', 'b'))\n"
    )
    assert plain_names(source) == [1, 2]


def test_no_check_names_its_option_with_a_plain_string() -> None:
    found = [
        f"{path.relative_to(COGS.parent)}:{line}"
        for path in sorted(COGS.rglob("*.py"))
        for line in plain_names(path.read_text(encoding="utf-8"))
    ]
    assert not found, "name the option with validation.option() or _.lazy(): " + ", ".join(found)
