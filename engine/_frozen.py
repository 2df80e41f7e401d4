"""A faster ``__init__`` for the engine's hot frozen dataclasses.

A frozen dataclass stores each field through ``object.__setattr__``, which is slow enough to
matter when a hand creates dozens of events. :func:`fast_init` replaces the generated
``__init__`` of a frozen, slotted dataclass by one that stores the fields through the slot
descriptors directly. The class stays frozen: assigning to a field still raises
:class:`dataclasses.FrozenInstanceError`, and equality, hashing and ``repr`` are unchanged.
A ``__post_init__`` (normalising or checking fields) is still called at the end.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["fast_init", "fast_init_tuples"]

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` a faster ``__init__`` (see the module
    docstring). Classes with default factories or init-only variables are left as they are."""
    return _fast_init(cls, ())


def fast_init_tuples(*names: str) -> Callable[[type[T]], type[T]]:
    """:func:`fast_init` for a class whose ``__post_init__`` does nothing but make the fields
    ``names`` tuples: the ``__init__`` does that itself, and skips the call."""

    def decorate(cls: type[T]) -> type[T]:
        return _fast_init(cls, names)

    return decorate


def _fast_init(cls: type[T], tuples: tuple[str, ...]) -> type[T]:
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    if any(f.default_factory is not dataclasses.MISSING for f in fields):
        return cls
    parameters = list(inspect.signature(cls.__init__).parameters)[1:]
    if parameters != [f.name for f in fields]:
        return cls  # init-only variables
    if not fields and not hasattr(cls, "__post_init__"):
        # Nothing to store: object's own __init__, in C, does exactly that.
        delattr(cls, "__init__")
        return cls
    namespace: dict[str, Any] = {}
    params = []
    body = []
    for k, f in enumerate(fields):
        namespace[f"_set{k}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default{k}"] = f.default
            params.append(f"{f.name}=_default{k}")
        if f.name in tuples:
            value = f"{f.name} if {f.name}.__class__ is tuple else tuple({f.name})"
        else:
            value = f.name
        body.append(f"    _set{k}(self, {value})")
    if tuples:
        if sorted(tuples) != sorted(f.name for f in fields if f.name in tuples):
            raise TypeError(f"{cls.__name__} has no field among {tuples}")
    elif hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass")
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (replacing a method on purpose)
    return cls
