"""The output formats of every kind of document a command writes, registered in one place.

A command names the document (one device's plan, a host's plans) and the format the user asked for; the
registry gives the text. Each renderer module is imported only when its format is asked for, so a command
pays for the one format it writes. A ``markdown`` format is Markdown source, which the command line shows
through rich on a terminal (``text``) and writes as it is elsewhere; every other format is written byte-exact.

Every format names the command that gives a plan again, and it runs as written. A plan from flags, a context
file or an example is reproduced by its context as ``iosched advise`` flags (one flag per context field, each
value one shell word: :func:`advise_command`). A plan of an observed host depends on what was read (the device's
current values, the other tuners), so it is reproduced by reading the host again: ``iosched advise --probe`` or
``--root DIR`` with the user's own flags (:func:`host_command`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from iosched.escape import sh_word
from iosched.hints import Generic, TypeVar
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.host import HostPlan, Verification
    from iosched.kb import Kb
    from iosched.plan import Plan

D = TypeVar("D")


class Options(Struct):
    """What a command says about its output beyond the format."""

    site_url: str | None = None
    """The public site that links point to (``--site-url``, ``$IOSCHED_SITE_URL``); None: plain ids."""
    host: str | None = None
    """The inventory host a playbook targets; None: every host."""
    reproduce: str | None = None
    """The command that gives a plan again (None: from its context); a host's plans carry their own."""
    detail: str = "answer"
    """Markdown and text: ``answer`` (the ticket answer, :mod:`iosched.answer`) or ``full`` (every device's plan
    with its context, rules that did not apply and every file whole)."""


class Rendered(Struct):
    text: str
    markdown: bool = False
    """Markdown source, shown through rich on a terminal by the ``text`` format."""


class Formats(Generic[D]):
    """The formats of one kind of document, in the order ``--format`` lists them."""

    def __init__(self, document: str) -> None:
        self.document = document
        self._by_name: dict[str, tuple[Callable[[Kb, D, Options], str], bool]] = {}

    def register(
        self, name: str, *, markdown: bool = False
    ) -> Callable[[Callable[[Kb, D, Options], str]], Callable[[Kb, D, Options], str]]:
        def add(render: Callable[[Kb, D, Options], str]) -> Callable[[Kb, D, Options], str]:
            self._by_name[name] = (render, markdown)
            return render

        return add

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def render(self, kb: Kb, document: D, fmt: str, options: Options) -> Rendered:
        """``document`` in format ``fmt``; KeyError for a format this kind of document does not have."""
        render, markdown = self._by_name[fmt]
        return Rendered(text=render(kb, document, options), markdown=markdown)


FLAG = {"symptoms": "--symptom"}
"""Context fields whose flag is not ``--`` + the field with dashes."""


def _command(words: Iterable[str]) -> str:
    return " ".join(sh_word(w) for w in words)


def _flag(field: str) -> str:
    return FLAG.get(field, "--" + field.replace("_", "-"))


def advise_command(context: Mapping[str, str], more: Iterable[str] = ()) -> str:
    """``iosched advise`` with the flags that give the plan of ``context`` (and ``more``: ``--results F``)."""
    return _command(["iosched", "advise", *(w for k, v in context.items() for w in (_flag(k), str(v))), *more])


def host_command(where: Iterable[str], user: Mapping[str, str | None], more: Iterable[str] = ()) -> str:
    """``iosched advise`` reading the host again (``where``: ``--probe``, or ``--root DIR``, or ``--context
    PROBE.json``) with the fields the user gave (and ``more``)."""
    given = [w for k, v in user.items() if v is not None for w in (_flag(k), str(v))]
    return _command(["iosched", "advise", *where, *given, *more])


PLAN: Formats[Plan] = Formats("plan")
"""One device's plan (``iosched advise``)."""
HOST: Formats[HostPlan] = Formats("host")
"""The plans for every device of an observed host (``iosched advise --probe/--root``)."""
VERIFY: Formats[Verification] = Formats("verify")
"""What a host has against what its plans want (``iosched verify``)."""


@PLAN.register("markdown", markdown=True)
@PLAN.register("text", markdown=True)
def _plan_markdown(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.reference import cli_style

    if options.detail == "full":
        from iosched.render.plan_markdown import render

        return render(kb, plan, cli_style(options.site_url, kb.version), options.reproduce)
    from iosched import answer
    from iosched.render import answer_markdown

    reproduce = options.reproduce if options.reproduce is not None else advise_command(plan.context)
    return answer_markdown.render(kb, answer.of_plan(kb, plan, reproduce), cli_style(options.site_url, kb.version))


@PLAN.register("json")
def _plan_json(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_json import render

    return render(kb, plan, options.reproduce)


@PLAN.register("sh")
def _plan_sh(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_shell import render

    return render(kb, plan, reproduce=options.reproduce)


@PLAN.register("ansible")
def _plan_ansible(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_ansible import EVERY_HOST, render

    reproduce = options.reproduce if options.reproduce is not None else advise_command(plan.context)
    return render(kb, [(options.host or EVERY_HOST, [plan])], reproduce)


@HOST.register("markdown", markdown=True)
@HOST.register("text", markdown=True)
def _host_markdown(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.reference import cli_style

    if options.detail == "full":
        from iosched.render.plan_markdown import render_host

        return render_host(kb, host.summarised(), cli_style(options.site_url, kb.version))
    from iosched import answer
    from iosched.render import answer_markdown

    return answer_markdown.render(kb, answer.of_host(kb, host.summarised()), cli_style(options.site_url, kb.version))


@HOST.register("json")
def _host_json(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_json import render_host

    return render_host(kb, host)


@HOST.register("sh")
def _host_sh(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_shell import render

    host = host.summarised()
    return render(kb, host.plans, [(s.device, s.reason) for s in host.skipped], host.reproduce)


@HOST.register("ansible")
def _host_ansible(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_ansible import EVERY_HOST, render

    return render(kb, [(options.host or EVERY_HOST, host.plans)], host.reproduce)


@VERIFY.register("markdown", markdown=True)
@VERIFY.register("text", markdown=True)
def _verify_markdown(kb: Kb, report: Verification, options: Options) -> str:
    from iosched.render.verify_report import render_markdown

    return render_markdown(report)


@VERIFY.register("json")
def _verify_json(kb: Kb, report: Verification, options: Options) -> str:
    from iosched.render.verify_report import render_json

    return render_json(report)
