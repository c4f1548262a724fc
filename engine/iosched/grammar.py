"""The closed grammars of every KB value that can reach a command, a comment or a generated file.

Each grammar is a regular expression, checked at KB load time (as an annotation on the schema) and again
wherever text from outside the KB (the command line, a capture, a result file) is taken as such a value.
Renderers still escape for their target (:mod:`iosched.escape`); a grammar makes sure there is
nothing dangerous left to escape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ID = r"[A-Za-z0-9][A-Za-z0-9._=-]{0,79}"
WORD = r"[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}(?: [A-Za-z0-9_.:+-]{1,32}){0,3}"
"""A value written to sysfs, procfs or a udev rule: a number, a name (``mq-deadline``, ``write through``);
single spaces between parts, no quotes, no shell or udev metacharacters."""
GLOB = r"[A-Za-z0-9*?!\[\]|_.:/-]{1,64}"
"""A udev match value: shell-style glob characters, no quotes, no spaces, no ``$`` or backslash."""
_SEGMENT = r"\.?[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,100}"
PATH = rf"(?:/{_SEGMENT}){{1,16}}"
"""An absolute path of plain segments: no ``.`` or ``..`` segment, no spaces or shell metacharacters."""
MOUNT_POINT = rf"/|{PATH}"
"""Where a file system is mounted: the root directory ``/`` or a :data:`PATH`."""
URL = r"https?://[A-Za-z0-9._~:/?#@!$&*+,;=%-]{1,400}"
"""A public URL: no quotes, brackets, parentheses or spaces, so it is safe in Markdown links and HTML."""
UNSEEN_RANGES = ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F), (0x200B, 0x200F), (0x2028, 0x2029), (0x202A, 0x202E),
                 (0x2066, 0x2069))  # fmt: skip
"""The characters a reader cannot see, or that change how the text around them shows: C0 and C1 controls but
tab and newline, zero-width marks, line and paragraph separators, direction marks. The one list for KB prose,
for what renderers replace, and for what readers of untrusted files refuse."""
UNSEEN = "".join(f"\\u{first:04x}-\\u{last:04x}" for first, last in UNSEEN_RANGES)
""":data:`UNSEEN_RANGES` as the body of a regular-expression character class."""
TEXT = rf"[^{UNSEEN}]+"
"""Prose: any characters but :data:`UNSEEN` ones."""
LINK_SCHEMES = ("http", "https", "mailto")
"""The only schemes a link in KB prose may have; any other link is relative (no scheme)."""
_LINK_TARGETS = (
    r"(?m)\]\(\s*<?([^)>\s]*)"  # an inline link or image: [text](target), ![alt](<target>)
    r"|^ {0,3}\[[^\]\n]+\]:\s*<?([^>\s]*)"  # a reference definition: [id]: target (on the next line too)
    r"|<([A-Za-z][A-Za-z0-9+.\-]*:[^>\s]*)>"  # an autolink: <scheme:...>
)
_SCHEME = r"([A-Za-z][A-Za-z0-9+.\-]*):"
DEVICE = r"[a-z][a-z0-9]{0,15}(?:-[0-9]{1,4})?"
"""A whole block device's kernel name: ``sda``, ``nvme0n1``, ``dm-0``, ``mmcblk0``, ``dasda``, ``md127``."""
SERIAL = r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}"
MOUNT_OPTIONS = r"[A-Za-z0-9_.:=+-]{1,64}(?:,[A-Za-z0-9_.:=+-]{1,64}){0,63}"
"""Words separated by commas: mount options (``rw,relatime,nobarrier``), and any single word of a context."""
NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
"""A plain name that is also a file name: a TuneD profile (``virtual-guest``)."""


SITE_EXTENSIONS = ("admonition", "attr_list", "md_in_html", "tables", "toc", "pymdownx.details", "pymdownx.highlight",
                   "pymdownx.inlinehilite", "pymdownx.superfences", "pymdownx.tabbed")  # fmt: skip
"""The Markdown extensions of the site (``markdown_extensions`` in mkdocs.yml), which KB prose is rendered with."""
URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "xlink:href", "action", "formaction", "data", "poster", "cite",
                            "background", "ping", "manifest"})  # fmt: skip


def link_problem(text: str) -> str | None:
    """Why Markdown ``text`` may not reach a page: an element of its HTML, rendered as the site renders it,
    with an event handler attribute (``onmouseover``, from ``attr_list``) or a link or source whose scheme is
    not in :data:`LINK_SCHEMES` (``javascript:``, ``data:`` ...), as a browser reads it (character references
    decoded, tabs, newlines and spaces dropped); None when every link is http(s), mailto or relative. The
    source is read by pattern first (what a browser may make a link of, though Markdown does not), and alone
    where Python-Markdown, installed with the site's extra, is not."""
    if "[" not in text and "<" not in text and "{" not in text:
        return None
    found = _source_link_problem(text)
    if found is not None:
        return found
    renderer = _site_markdown()
    return None if renderer is None else _html_link_problem(renderer.reset().convert(text))


def _site_markdown() -> Any:
    """This thread's Python-Markdown renderer with the site's extensions, made once (loading the extensions
    costs more than rendering a text) and reset before each text, as Python-Markdown reuses one; None where
    Python-Markdown is not installed."""
    import threading  # only for prose with links: a load from YAML, never a command's start-up

    renderer = _RENDERERS.get(threading.get_ident())
    if renderer is None:
        try:
            import markdown
        except ImportError:
            return None
        renderer = _RENDERERS[threading.get_ident()] = markdown.Markdown(extensions=list(SITE_EXTENSIONS))
    return renderer


_RENDERERS: dict[int, Any] = {}
"""A Python-Markdown renderer by thread (an instance renders one text at a time)."""


def _html_link_problem(html: str) -> str | None:
    """Why an element of ``html`` may not reach a page (see :func:`link_problem`)."""
    from html.parser import HTMLParser

    problems: list[str] = []

    class Elements(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            for name, value in attrs:
                if name.startswith("on"):
                    problems.append(f"<{tag}> attribute {name!r}: no event handlers")
                elif name in URL_ATTRIBUTES and not all(link_allowed(v) for v in _urls(name, value or "")):
                    problems.append(f"link to {(value or '')[:60]!r}: only http(s), mailto and relative links")

        handle_startendtag = handle_starttag

    Elements(convert_charrefs=True).feed(html)
    return problems[0] if problems else None


def _urls(name: str, value: str) -> list[str]:
    """The URLs of an attribute's value: a ``srcset`` lists several, each before its size."""
    if name != "srcset":
        return [value]
    return [part.split()[0] for part in value.split(",") if part.split()]


def _source_link_problem(text: str) -> str | None:
    """:func:`link_problem` by pattern on the Markdown source."""
    if "{" in text and compiled(r"\{:?[^}]*\bon[A-Za-z]+\s*=").search(text):
        return "an attribute list with an event handler: no event handlers"
    for found in compiled(_LINK_TARGETS).finditer(text):
        target = next(group for group in found.groups() if group is not None)
        if not link_allowed(target):
            return f"link to {target[:60]!r}: only http(s), mailto and relative links"
    return None


def link_allowed(target: str) -> bool:
    """Whether a link target (Markdown, or an HTML attribute's text) is http(s), mailto or relative, as a
    browser reads it: character references decoded, and tabs, newlines and spaces dropped."""
    import html

    scheme = compiled(_SCHEME).match("".join(c for c in html.unescape(target) if c > " "))
    return scheme is None or scheme[1].lower() in LINK_SCHEMES


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def device_name(value: str) -> bool:
    """Whether ``value`` is in :data:`DEVICE`, read without compiling it (what a plan for ``--device`` checks first,
    and compiling the pattern costs more than the rest of the check); a property test holds the two equal."""
    name, dash, number = value.partition("-")
    return (0 < len(name) <= 16 and name.isascii() and name.isalnum() and name[0].isalpha() and name.islower()
            and (not dash or (0 < len(number) <= 4 and number.isascii() and number.isdigit())))  # fmt: skip


def glob_match(name: str, glob: str) -> bool:
    """``fnmatch.fnmatchcase(name, glob)``: a glob whose one wildcard is a final ``*`` (``sd*``, as most of the KB's
    are) is read without compiling it, which costs more than the rest of a plan's device lookup."""
    prefix = glob[:-1]
    if glob.endswith("*") and "*" not in prefix and "?" not in prefix and "[" not in prefix:
        return name.startswith(prefix)
    from fnmatch import fnmatchcase

    return fnmatchcase(name, glob)


def matches(pattern: str, value: object) -> bool:
    """Whether ``value`` is a string wholly in the grammar ``pattern``."""
    return isinstance(value, str) and compiled(pattern).fullmatch(value) is not None


class Constrain:
    """Annotation marker: a string schema with a grammar and length bounds, applied by pydantic at load time.

    Defined here, without importing pydantic, so the schema module stays cheap to import.
    """

    def __init__(self, pattern: str, *, strip: bool = False, max_length: int | None = None,
                 check: Callable[[str], str | None] | None = None) -> None:  # fmt: skip
        """``check``, when given, is run on a value in the grammar: the reason it is refused, or None."""
        self.pattern = pattern
        self.strip = strip
        self.max_length = max_length
        self.check = check

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        schema = core_schema.str_schema(
            pattern=f"^(?:{self.pattern})$", strict=True, strip_whitespace=self.strip, min_length=1,
            max_length=self.max_length,
        )  # fmt: skip
        if self.check is None:
            return schema
        return core_schema.no_info_after_validator_function(_checked_by(self.check), schema)

    def __repr__(self) -> str:
        return f"Constrain({self.pattern!r})"


def _checked_by(check: Callable[[str], str | None]) -> Callable[[str], str]:
    def validate(value: str) -> str:
        problem = check(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    return validate


INVENTORY_HOST = r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}"
"""An inventory hostname the playbook accepts: none of the characters Ansible's host patterns give a meaning
(``, : ! & * ? [ ] ~``, white space, Jinja's braces)."""
ANSIBLE_NAMES = {
    "all": "Ansible's group of every inventory host",
    "ungrouped": "Ansible's group of the hosts no other group lists",
    "localhost": "Ansible's implicit name for the machine that runs the playbook",
    "127.0.0.1": "Ansible's implicit name for the machine that runs the playbook",
}
"""Names a host pattern never reads as one inventory host (ansible-core lib/ansible/inventory/manager.py,
``_enumerate_matches``: a pattern matches groups first, ``all`` and ``ungrouped`` among them, and a name in
``C.LOCALHOST`` that no inventory lists is the control node)."""


def host_problem(name: object) -> str | None:
    """Why a play for ``name`` could reach more than the inventory host of that name, or None when it cannot.

    ansible-core (lib/ansible/inventory/manager.py) splits ``hosts:`` on ``,`` and ``:``
    (``split_host_pattern``), strips white space, reads a leading ``!`` or ``&`` as exclusion or intersection
    (``order_patterns``), a leading ``~`` as a regular expression, ``*``, ``?`` and ``[`` as a glob and
    ``[a:b]`` as a subscript (``_match_one_pattern``), and matches group names before host names
    (``_enumerate_matches``). A name in :data:`INVENTORY_HOST` has none of that syntax; :data:`ANSIBLE_NAMES` are the
    group and host names Ansible gives itself."""
    if not matches(INVENTORY_HOST, name):
        return "not an inventory hostname of letters, digits, '.', '-', '_' (Ansible reads the rest as patterns)"
    if name in ANSIBLE_NAMES:
        return ANSIBLE_NAMES[name]
    return None
