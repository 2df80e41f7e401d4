"""What Discord enforces on message, component, modal and autocomplete payloads.

Every number here comes from the Discord developer documentation (message, embed, component,
interaction and application-command reference pages) as summarised in
``shared/discord-emulator-notes.md``.  The validators collect errors in Discord's own nested shape::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"components": {"0": {"components": {"1": {"custom_id":
         {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                       "message": "Must be 100 or fewer in length."}]}}}}}}}

so discord.py raises ``discord.HTTPException`` with status 400, code 50035 and that text, exactly
as it would against Discord.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

# --- messages --------------------------------------------------------------------------------
MESSAGE_CONTENT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER_TEXT = 2048
EMBED_AUTHOR_NAME = 256
EMBED_TOTAL = 6000
ATTACHMENTS_PER_MESSAGE = 10
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # bytes per file (the interaction's attachment_size_limit)

# --- components ------------------------------------------------------------------------------
ACTION_ROWS = 5  # top-level rows on a classic message
ROW_BUTTONS = 5  # buttons in one action row (or exactly one select)
CUSTOM_ID = 100  # 1..100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25  # 1..25
SELECT_MIN_VALUES = 25  # 0..25
SELECT_MAX_VALUES = 25  # 1..25
SELECT_PLACEHOLDER = 150
OPTION_LABEL = 100
OPTION_VALUE = 100
OPTION_DESCRIPTION = 100
TEXT_INPUT_LABEL = 45
TEXT_INPUT_LENGTH = 4000  # min_length 0..4000, max_length 1..4000, value <= 4000
TEXT_INPUT_PLACEHOLDER = 100
LABEL_LABEL = 45
LABEL_DESCRIPTION = 100
V2_COMPONENTS = 40  # every component, nested ones included, on a Components V2 message
V2_TEXT_TOTAL = 4000  # all text display content on one message
MEDIA_GALLERY_ITEMS = 10
SECTION_TEXTS = 3

# --- modals and autocomplete -----------------------------------------------------------------
MODAL_TITLE = 45
MODAL_COMPONENTS = 5  # 1..5
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100

# --- application commands --------------------------------------------------------------------
COMMAND_SIZE = 8000
"""Characters of one command: the name, description and choice values of the command, its
groups, subcommands, options and choices, each field counted at its longest localization
(the default included). Discord refuses a larger command with APPLICATION_COMMAND_TOO_LARGE."""


def command_size(data: Any) -> int:
    """A command's (or an option's) size by :data:`COMMAND_SIZE`'s rule.

    >>> command_size({"name": "poker", "description": "Play",
    ...               "description_localizations": {"de": "Spielen"},
    ...               "options": [{"name": "game", "description": "Which",
    ...                            "choices": [{"name": "Draw", "value": "draw"}]}]})
    29
    """
    if not isinstance(data, dict):
        return 0

    def longest(node: dict[str, Any], field: str) -> int:
        texts = [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]
        return max(len(str(text)) for text in texts)

    size = longest(data, "name") + longest(data, "description")
    for choice in data.get("choices") or ():
        if isinstance(choice, dict):
            size += longest(choice, "name") + len(str(choice.get("value", "")))
    for option in data.get("options") or ():
        size += command_size(option)
    return size


# --- flags -----------------------------------------------------------------------------------
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

BUTTON_TYPE = 2
SELECT_TYPES = {3, 5, 6, 7, 8}
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
MODAL_TOP_LEVEL = {1, 10, 18}


class FormErrors:
    """Collects field errors and renders Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[tuple[str, str, str]] = []  # (dotted path, code, message)

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append((".".join(str(p) for p in path), code, message))

    def __bool__(self) -> bool:
        return bool(self.flat)

    def body(self) -> dict[str, Any]:
        return {"code": 50035, "message": "Invalid Form Body", "errors": self.tree}


Path = tuple[str | int, ...]


def _text(
    errs: FormErrors,
    path: Path,
    value: Any,
    maximum: int,
    *,
    minimum: int = 0,
    required: bool = False,
) -> int:
    """Checks a string field; returns its length (0 when absent)."""
    if value is None:
        if required:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return 0
    if not isinstance(value, str):
        errs.add(path, "BASE_TYPE_STRING", "Could not interpret value as string.")
        return 0
    n = len(value)
    if n > maximum:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")
    elif n < minimum:
        if minimum == 1 and required:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        else:
            errs.add(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {minimum} and {maximum} in length.",
            )
    return n


def _int_range(errs: FormErrors, path: Path, value: Any, lo: int, hi: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        errs.add(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
    elif value > hi:
        errs.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {hi}.")
    elif value < lo:
        errs.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {lo}.")


def _list(errs: FormErrors, path: Path, value: Any, maximum: int, *, minimum: int = 0) -> list[Any]:
    if value is None:
        if minimum:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return []
    if not isinstance(value, list):
        errs.add(path, "BASE_TYPE_ARRAY", "Could not interpret value as array.")
        return []
    if len(value) > maximum:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length.")
    elif len(value) < minimum:
        errs.add(
            path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {maximum} in length."
        )
    return value


# --- embeds ----------------------------------------------------------------------------------


def embed_size(embed: dict[str, Any]) -> int:
    """Characters counted toward the 6000 total (title, description, fields, footer, author)."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        n += len(field.get("name") or "") + len(field.get("value") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    return n


def validate_embeds(errs: FormErrors, embeds: Any, path: Path = ("embeds",)) -> None:
    items = _list(errs, path, embeds, EMBEDS_PER_MESSAGE)
    total = 0
    for i, embed in enumerate(items):
        p = (*path, i)
        if not isinstance(embed, dict):
            errs.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        _text(errs, (*p, "title"), embed.get("title"), EMBED_TITLE)
        _text(errs, (*p, "description"), embed.get("description"), EMBED_DESCRIPTION)
        fields = _list(errs, (*p, "fields"), embed.get("fields"), EMBED_FIELDS)
        for j, field in enumerate(fields):
            fp = (*p, "fields", j)
            _text(
                errs, (*fp, "name"), field.get("name"), EMBED_FIELD_NAME, minimum=1, required=True
            )
            _text(
                errs,
                (*fp, "value"),
                field.get("value"),
                EMBED_FIELD_VALUE,
                minimum=1,
                required=True,
            )
        footer = embed.get("footer")
        if footer:
            _text(
                errs, (*p, "footer", "text"), footer.get("text"), EMBED_FOOTER_TEXT, required=True
            )
        author = embed.get("author")
        if author:
            _text(
                errs, (*p, "author", "name"), author.get("name"), EMBED_AUTHOR_NAME, required=True
            )
        total += embed_size(embed)
    if total > EMBED_TOTAL:
        errs.add(
            path,
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )


# --- components ------------------------------------------------------------------------------


def walk_components(components: Any) -> Iterator[dict[str, Any]]:
    """Every component in a tree (rows, containers, sections, labels and their children)."""
    if not isinstance(components, list):
        return
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk_components(comp.get("components"))
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


class _ComponentCheck:
    def __init__(self, errs: FormErrors, *, in_modal: bool = False) -> None:
        self.errs = errs
        self.in_modal = in_modal
        self.custom_ids: dict[str, Path] = {}
        self.text_total = 0

    def custom_id(self, path: Path, value: Any, *, required: bool = True) -> None:
        if value is None and not required:
            return
        _text(self.errs, (*path, "custom_id"), value, CUSTOM_ID, minimum=1, required=True)
        if isinstance(value, str):
            if value in self.custom_ids:
                self.errs.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            else:
                self.custom_ids[value] = path

    def component(self, path: Path, comp: Any, *, in_row: bool = False) -> None:
        errs = self.errs
        if not isinstance(comp, dict):
            errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        ctype = comp.get("type")
        if ctype == 1:
            self.action_row(path, comp)
        elif ctype == BUTTON_TYPE:
            self.button(path, comp)
        elif ctype in SELECT_TYPES:
            self.select(path, comp)
        elif ctype == 4:
            self.text_input(path, comp, in_label=not in_row)
        elif ctype == 9:
            texts = _list(
                errs, (*path, "components"), comp.get("components"), SECTION_TEXTS, minimum=1
            )
            for i, child in enumerate(texts):
                if isinstance(child, dict) and child.get("type") != 10:
                    errs.add(
                        (*path, "components", i, "type"),
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (10,).',
                    )
                else:
                    self.component((*path, "components", i), child)
            accessory = comp.get("accessory")
            if accessory is None:
                errs.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                self.component((*path, "accessory"), accessory)
        elif ctype == 10:
            self.text_total += _text(
                errs,
                (*path, "content"),
                comp.get("content"),
                V2_TEXT_TOTAL,
                minimum=1,
                required=True,
            )
        elif ctype == 11:
            media = comp.get("media") or {}
            _text(errs, (*path, "media", "url"), media.get("url"), 2048, minimum=1, required=True)
            _text(errs, (*path, "description"), comp.get("description"), 1024)
        elif ctype == 12:
            items = _list(errs, (*path, "items"), comp.get("items"), MEDIA_GALLERY_ITEMS, minimum=1)
            for i, item in enumerate(items):
                media = (item or {}).get("media") or {}
                _text(
                    errs,
                    (*path, "items", i, "media", "url"),
                    media.get("url"),
                    2048,
                    minimum=1,
                    required=True,
                )
        elif ctype == 13:
            file = comp.get("file") or {}
            _text(errs, (*path, "file", "url"), file.get("url"), 2048, minimum=1, required=True)
        elif ctype == 14:
            spacing = comp.get("spacing")
            if spacing is not None and spacing not in (1, 2):
                errs.add((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        elif ctype == 17:
            children = _list(
                errs, (*path, "components"), comp.get("components"), V2_COMPONENTS, minimum=1
            )
            for i, child in enumerate(children):
                ct = child.get("type") if isinstance(child, dict) else None
                if ct not in {1, 9, 10, 12, 13, 14}:
                    errs.add(
                        (*path, "components", i, "type"),
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (1, 9, 10, 12, 13, 14).',
                    )
                else:
                    self.component((*path, "components", i), child)
        elif ctype == 18:
            _text(errs, (*path, "label"), comp.get("label"), LABEL_LABEL, minimum=1, required=True)
            _text(errs, (*path, "description"), comp.get("description"), LABEL_DESCRIPTION)
            child = comp.get("component")
            if child is None:
                errs.add((*path, "component"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                self.component((*path, "component"), child)
        elif ctype in (19, 21, 22, 23):  # file upload, radio group, checkbox group, checkbox
            self.custom_id(path, comp.get("custom_id"))
        else:
            errs.add((*path, "type"), "UNION_TYPE_CHOICES", f"Unknown component type {ctype!r}.")

    def action_row(self, path: Path, row: dict[str, Any]) -> None:
        errs = self.errs
        children = row.get("components")
        items = _list(errs, (*path, "components"), children, ROW_BUTTONS, minimum=1)
        types = [c.get("type") for c in items if isinstance(c, dict)]
        selects = [t for t in types if t in SELECT_TYPES]
        if selects and len(items) > 1:
            errs.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for i, child in enumerate(items):
            ct = child.get("type") if isinstance(child, dict) else None
            allowed = {4} if self.in_modal else {BUTTON_TYPE, *SELECT_TYPES}
            if ct not in allowed:
                errs.add(
                    (*path, "components", i, "type"),
                    "UNION_TYPE_CHOICES",
                    f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
                )
                continue
            self.component((*path, "components", i), child, in_row=True)

    def button(self, path: Path, btn: dict[str, Any]) -> None:
        errs = self.errs
        style = btn.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            errs.add(
                (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
            )
            return
        _text(errs, (*path, "label"), btn.get("label"), BUTTON_LABEL)
        if style == 5:
            _text(errs, (*path, "url"), btn.get("url"), 512, minimum=1, required=True)
            if btn.get("custom_id") is not None:
                errs.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A custom id cannot be set on a link button",
                )
        elif style == 6:
            if not btn.get("sku_id"):
                errs.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            if btn.get("url") is not None:
                errs.add(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                    "A url can only be set on a link button",
                )
            self.custom_id(path, btn.get("custom_id"))

    def select(self, path: Path, sel: dict[str, Any]) -> None:
        errs = self.errs
        self.custom_id(path, sel.get("custom_id"))
        _text(errs, (*path, "placeholder"), sel.get("placeholder"), SELECT_PLACEHOLDER)
        min_v = sel.get("min_values")
        max_v = sel.get("max_values")
        _int_range(errs, (*path, "min_values"), min_v, 0, SELECT_MIN_VALUES)
        _int_range(errs, (*path, "max_values"), max_v, 1, SELECT_MAX_VALUES)
        lo = min_v if isinstance(min_v, int) else 1
        hi = max_v if isinstance(max_v, int) else 1
        if lo > hi:
            errs.add(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
                "min_values must be less than or equal to max_values",
            )
        if sel.get("type") == 3:
            options = _list(errs, (*path, "options"), sel.get("options"), SELECT_OPTIONS, minimum=1)
            seen: set[str] = set()
            defaults = 0
            for i, opt in enumerate(options):
                op = (*path, "options", i)
                _text(
                    errs, (*op, "label"), opt.get("label"), OPTION_LABEL, minimum=1, required=True
                )
                _text(
                    errs, (*op, "value"), opt.get("value"), OPTION_VALUE, minimum=1, required=True
                )
                _text(errs, (*op, "description"), opt.get("description"), OPTION_DESCRIPTION)
                value = opt.get("value")
                if isinstance(value, str):
                    if value in seen:
                        errs.add(
                            (*op, "value"),
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "Select component option values cannot be duplicated",
                        )
                    seen.add(value)
                defaults += bool(opt.get("default"))
            if options and isinstance(max_v, int) and max_v > len(options):
                errs.add(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                    "max_values must be less than or equal to the number of options",
                )
            if defaults > hi:
                errs.add(
                    (*path, "options"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                    "The number of default options exceeds max_values",
                )
        else:
            dv = _list(
                errs, (*path, "default_values"), sel.get("default_values"), SELECT_MAX_VALUES
            )
            if len(dv) > hi:
                errs.add(
                    (*path, "default_values"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                    "The number of default values exceeds max_values",
                )

    def text_input(self, path: Path, ti: dict[str, Any], *, in_label: bool) -> None:
        errs = self.errs
        if not self.in_modal:
            errs.add((*path, "type"), "UNION_TYPE_CHOICES", "Text inputs are only valid in modals.")
            return
        self.custom_id(path, ti.get("custom_id"))
        if ti.get("style") not in (1, 2):
            errs.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        if not in_label:
            _text(
                errs, (*path, "label"), ti.get("label"), TEXT_INPUT_LABEL, minimum=1, required=True
            )
        min_l = ti.get("min_length")
        max_l = ti.get("max_length")
        _int_range(errs, (*path, "min_length"), min_l, 0, TEXT_INPUT_LENGTH)
        _int_range(errs, (*path, "max_length"), max_l, 1, TEXT_INPUT_LENGTH)
        if isinstance(min_l, int) and isinstance(max_l, int) and min_l > max_l:
            errs.add(
                (*path, "min_length"),
                "TEXT_INPUT_MIN_LENGTH_EXCEEDS_MAX",
                "min_length must be less than or equal to max_length",
            )
        _text(errs, (*path, "value"), ti.get("value"), TEXT_INPUT_LENGTH)
        _text(errs, (*path, "placeholder"), ti.get("placeholder"), TEXT_INPUT_PLACEHOLDER)


def validate_components(errs: FormErrors, components: Any, *, v2: bool) -> None:
    path: Path = ("components",)
    if components is None:
        return
    check = _ComponentCheck(errs)
    if v2:
        items = _list(errs, path, components, V2_COMPONENTS)
        total = sum(1 for _ in walk_components(items))
        if total > V2_COMPONENTS:
            errs.add(
                path,
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"Must be {V2_COMPONENTS} or fewer in total.",
            )
        for i, comp in enumerate(items):
            ct = comp.get("type") if isinstance(comp, dict) else None
            if ct not in V2_TOP_LEVEL:
                errs.add(
                    (*path, i, "type"),
                    "UNION_TYPE_CHOICES",
                    f'Value of field "type" must be one of {tuple(sorted(V2_TOP_LEVEL))}.',
                )
                continue
            check.component((*path, i), comp)
        if check.text_total > V2_TEXT_TOTAL:
            errs.add(
                path,
                "COMPONENT_MAX_TEXT_EXCEEDED",
                f"Total text display content must be {V2_TEXT_TOTAL} or fewer in length.",
            )
    else:
        items = _list(errs, path, components, ACTION_ROWS)
        for i, comp in enumerate(items):
            if not isinstance(comp, dict) or comp.get("type") != 1:
                errs.add(
                    (*path, i, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1,).',
                )
                continue
            check.component((*path, i), comp)


def validate_message(
    payload: dict[str, Any],
    *,
    existing: dict[str, Any] | None = None,
    allow_ephemeral: bool = False,
) -> FormErrors:
    """Checks a message create/edit body (``existing``: the stored message for an edit)."""
    errs = FormErrors()
    merged = dict(existing or {})
    merged.update({k: v for k, v in payload.items() if k in payload})
    flags = merged.get("flags") or 0
    if not isinstance(flags, int):
        errs.add(("flags",), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
        flags = 0
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if "content" in payload:
        _text(errs, ("content",), payload["content"], MESSAGE_CONTENT)
    if "embeds" in payload:
        validate_embeds(errs, payload["embeds"])
    if "components" in payload:
        validate_components(errs, payload["components"], v2=v2)
    if "attachments" in payload:
        _list(errs, ("attachments",), payload["attachments"], ATTACHMENTS_PER_MESSAGE)
    if v2:
        if merged.get("content"):
            errs.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if merged.get("embeds"):
            errs.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    if existing is not None and (existing.get("flags") or 0) & FLAG_COMPONENTS_V2 and not v2:
        errs.add(
            ("flags",),
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "Cannot remove the IS_COMPONENTS_V2 flag from a message",
        )
    if "flags" in payload and flags & FLAG_EPHEMERAL and not allow_ephemeral:
        # Discord silently ignores flags it does not allow; ephemeral outside interactions is
        # dropped by the caller rather than rejected.
        pass
    return errs


def validate_modal(data: Any) -> FormErrors:
    errs = FormErrors()
    if not isinstance(data, dict):
        errs.add(("data",), "BASE_TYPE_REQUIRED", "This field is required")
        return errs
    _text(errs, ("data", "custom_id"), data.get("custom_id"), CUSTOM_ID, minimum=1, required=True)
    _text(errs, ("data", "title"), data.get("title"), MODAL_TITLE, minimum=1, required=True)
    items = _list(errs, ("data", "components"), data.get("components"), MODAL_COMPONENTS, minimum=1)
    check = _ComponentCheck(errs, in_modal=True)
    for i, comp in enumerate(items):
        ct = comp.get("type") if isinstance(comp, dict) else None
        path: Path = ("data", "components", i)
        if ct not in MODAL_TOP_LEVEL:
            errs.add(
                (*path, "type"),
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {tuple(sorted(MODAL_TOP_LEVEL))}.',
            )
            continue
        if ct == 1:
            row = _list(errs, (*path, "components"), comp.get("components"), 1, minimum=1)
            for j, child in enumerate(row):
                if not isinstance(child, dict) or child.get("type") != 4:
                    errs.add(
                        (*path, "components", j, "type"),
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (4,).',
                    )
                else:
                    check.text_input((*path, "components", j), child, in_label=False)
        else:
            check.component(path, comp)
    return errs


def validate_autocomplete(data: Any) -> FormErrors:
    errs = FormErrors()
    choices = _list(errs, ("data", "choices"), (data or {}).get("choices"), AUTOCOMPLETE_CHOICES)
    for i, choice in enumerate(choices):
        path: Path = ("data", "choices", i)
        _text(errs, (*path, "name"), choice.get("name"), CHOICE_NAME, minimum=1, required=True)
        value = choice.get("value")
        if isinstance(value, str):
            _text(errs, (*path, "value"), value, CHOICE_VALUE)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            errs.add((*path, "value"), "BASE_TYPE_REQUIRED", "This field is required")
    return errs


def is_empty_message(msg: dict[str, Any], has_files: bool) -> bool:
    return not (
        msg.get("content")
        or msg.get("embeds")
        or msg.get("components")
        or msg.get("attachments")
        or has_files
        or msg.get("sticker_ids")
        or msg.get("poll")
    )
