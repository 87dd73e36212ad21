"""Tool arguments as models really send them, made exact before strict validation.

The input models are strict on purpose: a string where a number belongs is a mistake the
model should hear about, not a guess. Two habits are not mistakes, and strict-mode
schemas even ask for one of them, so they are read the way the model meant them:

- `null` for an optional field means "not given": the key is dropped and the field's
  default applies. OpenAI's strict mode lists every property as required and has the
  model send `null` for the ones it leaves out, so without this no strict call would
  validate. `null` for a required field stays an error.
- An integral float for an integer (`limit: 5.0`, what JSON number handling in some
  stacks produces) becomes the integer. `5.5`, NaN, infinity, a float beyond 2**53 (no
  longer an exact integer) and a boolean stay errors; so does a string such as "5".

The pass follows the model's fields, into nested models, lists and dicts of them, and
leaves everything it does not recognise for pydantic to judge.
"""

from __future__ import annotations

import math
import types
from collections.abc import Mapping
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

#: Past this a float no longer stands for one exact integer.
EXACT_FLOAT_INTEGERS = 2**53

_SEQUENCES = (list, tuple, set, frozenset)


def loosen(model: type[BaseModel], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`arguments` for `model` with nulls for optional fields dropped and integral floats
    for integer fields made integers; a new dict, `arguments` is not changed."""
    fields = _fields_by_key(model)
    loosened: dict[str, Any] = {}
    for key, value in arguments.items():
        field = fields.get(key)
        if field is None:
            loosened[key] = value  # unknown: pydantic reports it
        elif value is None and not field.is_required():
            continue  # "not given": the default applies
        else:
            loosened[key] = _coerce(field.annotation, value)
    return loosened


def _fields_by_key(model: type[BaseModel]) -> dict[str, FieldInfo]:
    by_key: dict[str, FieldInfo] = {}
    for name, field in model.model_fields.items():
        by_key[name] = field
        if isinstance(field.alias, str):
            by_key[field.alias] = field
    return by_key


def _coerce(annotation: Any, value: Any) -> Any:
    """`value` for a field typed `annotation`, loosened where that is safe."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _coerce(get_args(annotation)[0], value)
    if origin is Union or origin is types.UnionType:
        return _coerce_union(get_args(annotation), value)
    if annotation is int:
        return _integer(value)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return loosen(annotation, value) if isinstance(value, Mapping) else value
    args = get_args(annotation)
    if origin in _SEQUENCES and isinstance(value, list) and args:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return [_coerce(arg, item) for arg, item in zip(args, value, strict=False)] + list(
                value[len(args) :]
            )
        return [_coerce(args[0], item) for item in value]
    if origin in (dict, Mapping) and isinstance(value, Mapping) and len(args) == 2:
        return {key: _coerce(args[1], item) for key, item in value.items()}
    return value


def _coerce_union(members: tuple[Any, ...], value: Any) -> Any:
    """The first member that loosens `value` wins; a float stays a float where the union
    takes floats."""
    if value is None or (isinstance(value, float) and float in members):
        return value
    for member in members:
        if member is type(None):
            continue
        coerced = _coerce(member, value)
        if coerced is not value:
            return coerced
    return value


def _integer(value: Any) -> Any:
    """An integral, exactly representable float as an int; anything else unchanged."""
    if (
        type(value) is float
        and math.isfinite(value)
        and value.is_integer()
        and abs(value) <= EXACT_FLOAT_INTEGERS
    ):
        return int(value)
    return value
