"""Validate plain data (parsed YAML) into Structs, with pydantic models derived from the Struct classes.

Used at KB load time only. The models are generated from the Structs' own annotations: strict types,
closed (unknown keys are errors), and every ``check`` of a class runs on the built instance, so the schema is
declared once. ``json_schema`` gives the same rules to editors.
"""

from __future__ import annotations

import sys
import typing
from types import UnionType
from typing import Annotated, Any, ClassVar, Literal, Self, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, ValidationError, create_model
from pydantic import model_validator as _after

from iosched.hints import real
from iosched.struct import OneOfKeys, Struct, checks

__all__ = ["ValidationError", "adapter", "json_schema", "validate"]


def _tuples(value: Any) -> Any:
    """YAML lists as tuples, recursively (the schema's sequences are tuples; strict mode wants them)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def _translate(tp: Any) -> Any:
    """A Struct annotation as a pydantic type: Structs become their derived models, recursively."""
    if isinstance(tp, type) and issubclass(tp, Struct):
        return model_for(tp)
    origin = get_origin(tp)
    if origin is Annotated:
        inner, *meta = get_args(tp)
        marker = next((m for m in meta if isinstance(m, OneOfKeys)), None)
        if marker is not None:
            tagged = tuple(Annotated[model_for(cls), Tag(key)] for key, cls in marker.by_key.items())
            keys = ", ".join(marker.by_key)
            return Annotated[
                Union[tagged],  # noqa: UP007 - a runtime union of the tagged models
                Discriminator(marker.discriminate, custom_error_type="condition",
                              custom_error_message=f"expected a mapping with exactly one of {keys}"),
            ]  # fmt: skip
        rest = tuple(m for m in meta if not isinstance(m, OneOfKeys))
        return Annotated[(_translate(inner), *rest)] if rest else _translate(inner)
    if origin in (Union, UnionType):
        return Union[tuple(_translate(a) for a in get_args(tp))]  # noqa: UP007
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple[_translate(args[0]), ...]  # type: ignore[misc]
        return tuple[tuple(_translate(a) for a in args)]  # type: ignore[misc]
    if origin is dict:
        key, value = get_args(tp)
        return dict[_translate(key), _translate(value)]  # type: ignore[misc]
    if origin is Literal or tp is Any:
        return tp
    return tp


def _to_struct(value: Any) -> Any:
    """A validated model (and its nested models) as the Struct it was derived from."""
    if isinstance(value, BaseModel):
        cached = value.__pydantic_private__.get("_struct") if value.__pydantic_private__ else None
        if cached is not None:
            return cached
        cls = type(value).__struct__  # type: ignore[attr-defined]
        return cls.build({name: _to_struct(getattr(value, name)) for name in cls.__fields__})
    if type(value) is tuple:
        return tuple(_to_struct(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_struct(v) for k, v in value.items()}
    return value


_MODELS: dict[type[Struct], type[BaseModel]] = {}
_BUILDING: set[type[Struct]] = set()
_NAMESPACE: dict[str, Any] = {}
"""Generated model name -> model, to resolve the forward references of recursive Structs (conditions)."""


_TYPING_NAMES = {"Annotated": Annotated, "Any": Any, "ClassVar": ClassVar, "Literal": Literal, "Self": Self}


def _annotation_names(cls: type[Struct]) -> dict[str, Any]:
    """What the names in ``cls``'s annotations mean: the typing forms they use, and the named aliases of the
    modules that declare it and its bases as ``typing``'s own forms (:mod:`iosched.hints`)."""
    names: dict[str, Any] = dict(_TYPING_NAMES)
    for klass in cls.__mro__:
        for name, value in vars(sys.modules[klass.__module__]).items():
            form = real(value)
            if form is not value and names.setdefault(name, form) != form:
                raise TypeError(f"{name} names two different types in the modules of {cls.__name__}")
    return names


def _model_name(cls: type[Struct]) -> str:
    return f"{cls.__name__}Schema"


def model_for(cls: type[Struct]) -> Any:
    """The pydantic model derived from a Struct class (built once per class); a forward reference by name
    while that very class is being built (a condition inside a condition)."""
    if cls in _MODELS:
        return _MODELS[cls]
    if cls in _BUILDING:
        return _model_name(cls)
    _BUILDING.add(cls)
    try:
        hints = typing.get_type_hints(cls, localns=_annotation_names(cls), include_extras=True)
        fields: dict[str, Any] = {}
        for name in cls.__fields__:
            default = getattr(cls, name) if name not in cls.__required__ else ...
            alias = cls.__aliases__.get(name)
            fields[name] = (_translate(hints[name]), Field(default, alias=alias) if alias else default)
    finally:
        _BUILDING.discard(cls)
    struct_checks = checks(cls)

    def run_checks(model: BaseModel) -> BaseModel:
        struct = _to_struct(model)
        for check in struct_checks:
            check(struct)
        object.__setattr__(model, "__pydantic_private__", {"_struct": struct})
        return model

    config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True, populate_by_name=False,
                        title=cls.__name__)  # fmt: skip
    model = create_model(
        _model_name(cls), __config__=config, __doc__=cls.__doc__, __module__=__name__,
        __validators__={"_checks": _after(mode="after")(run_checks)},  # type: ignore[dict-item]
        **fields,
    )  # fmt: skip
    model.__struct__ = cls  # type: ignore[attr-defined]
    _MODELS[cls] = model
    _NAMESPACE[_model_name(cls)] = model
    return model


_ADAPTERS: dict[type[Struct], TypeAdapter[Any]] = {}


def adapter(cls: type[Struct]) -> TypeAdapter[Any]:
    if cls in _ADAPTERS:
        return _ADAPTERS[cls]
    model = model_for(cls)
    for generated in list(_MODELS.values()):
        generated.model_rebuild(_types_namespace=_NAMESPACE, raise_errors=False)
    _ADAPTERS[cls] = TypeAdapter(model)
    return _ADAPTERS[cls]


def validate(cls: type[Struct], data: Any) -> Any:
    """``data`` (parsed YAML or JSON) as an instance of ``cls``; raises pydantic's ValidationError."""
    return _to_struct(adapter(cls).validate_python(_tuples(data)))


def json_schema(cls: type[Struct]) -> dict[str, Any]:
    return adapter(cls).json_schema(by_alias=True)


def kb_file_schema() -> dict[str, Any]:
    """The JSON Schema of one KB YAML file: a mapping of sections to lists of their entities, for editors."""
    from iosched.knowledge.kinds import KINDS

    sections = {k.section: (tuple[model_for(k.schema), ...] | None, None) for k in KINDS if k.section}  # type: ignore[misc]
    model = create_model(  # type: ignore[call-overload]
        "KbFile", __config__=ConfigDict(extra="forbid", title="iosched KB file"), **sections
    )
    for generated in list(_MODELS.values()):
        generated.model_rebuild(_types_namespace=_NAMESPACE, raise_errors=False)
    model.model_rebuild(_types_namespace=_NAMESPACE)
    schema: dict[str, Any] = model.model_json_schema(by_alias=True)
    return schema
