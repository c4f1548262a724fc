"""Stable diagnostic codes of ``iosched kb check``."""

from __future__ import annotations

from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

CODES: Final[dict[str, str]] = {
    "KB001": "file cannot be read or parsed as YAML",
    "KB002": "top level of a KB file is not a mapping of sections",
    "KB003": "unknown section name",
    "KB004": "a section is not a list of entries",
    "KB010": "unknown key",
    "KB011": "missing required key",
    "KB012": "invalid value",
    "KB013": "kernel (or package) version range ends before it starts",
    "KB014": "a value that can reach a command is outside its grammar",
    "KB101": "unknown source id",
    "KB102": "unknown elevator",
    "KB103": "unknown caveat id",
    "KB104": "duplicate id",
    "KB105": "unknown fact (not in the registered facts)",
    "KB106": "unknown reference to a KB id",
    "KB107": "unknown distribution id",
    "KB108": "rule action sets an unknown setting or a value the KB does not accept",
    "KB109": "rule example does not behave as the example says",
    "KB110": "rule examples are one-sided (none fires, or none stays silent)",
    "KB111": "a caveat that no rule, setting or scope can bring into a plan",
    "KB112": "two default-scheduler rows of a distribution give one device different elevators with equal precedence",
    "KB113": "an example whose context advise cannot plan (an unknown field, or an id the KB lacks)",
    "KB114": "a workload synonym that another workload's id or synonym already spells",
    "KB115": "a caveat that names a distribution release its scope does not (it would be shown where it is false)",
    "KB116": "a release's kernel-default row names another elevator than its kernel gives such a device",
    "KB117": "a caveat without a subject: the condition on a plan's facts under which it is about that plan",
    "KB118": "two sources with one address (a customer would open the same page twice)",
}


class Diagnostic(Struct, kw_only=False):
    code: str
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.code} {self.message}"
