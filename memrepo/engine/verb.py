"""`verb`: a public method of `MemoryRepo` that one of its areas implements.

The facade is composed, not inherited: it holds one object per area (writes, items,
recall, sync...), and each public method is declared on the facade as the area method it
is. A class body of `remember = verb("writes", WritesApi.remember)` lines is the whole
public surface, in one place, with no method resolution order to get right and no area
that can reach another except through what the facade hands it.

`repo.remember` is the area's bound method itself (its signature, docstring and types),
so a call costs one attribute lookup more than a method, and `help()`, `inspect` and
type checkers see the area's own definition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")


class verb(Generic[P, R]):
    """The area method `method`, called on the facade's `area` attribute."""

    def __init__(self, area: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.area = area
        self.method = method
        self.__doc__ = method.__doc__
        self.__wrapped__ = method

    @overload
    def __get__(self, repo: None, owner: type) -> Self: ...

    @overload
    def __get__(self, repo: object, owner: type) -> Callable[P, R]: ...

    def __get__(self, repo: object | None, owner: type) -> Self | Callable[P, R]:
        if repo is None:
            return self
        bound: Callable[P, R] = getattr(getattr(repo, self.area), self.method.__name__)
        return bound
