"""SUSE's SAP tuners: saptune notes (``/etc/sysconfig/saptune``) and sapconf (``/etc/sysconfig/sapconf``).

saptune applies the notes in ``NOTE_APPLY_ORDER`` (``TUNE_FOR_NOTES`` before the first apply); a note's sheet
is the working copy under /var/lib/saptune, else the shipped one, and an override in /etc/saptune/override
replaces its keys (an empty value leaves the setting alone). Scheduler lists (``noop, none``) are kept as
written: both tools take the first elevator the device offers.
"""

from __future__ import annotations

import re

from iosched.capture.source import Source
from iosched.mechanisms.ini import parse_ini
from iosched.observe.release import parse_os_release
from iosched.records.system import Tuner, setting_value, sysctl_setting

NOTE_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
NOTE_SHEETS = ("var/lib/saptune/working/notes/{}", "usr/share/saptune/notes/{}", "etc/saptune/extra/{}.conf")
BLOCK_KEYS = {"IO_SCHEDULER": "scheduler", "NRREQ": "queue/nr_requests", "READ_AHEAD_KB": "queue/read_ahead_kb",
              "MAX_SECTORS_KB": "queue/max_sectors_kb"}  # fmt: skip
SAPCONF_KEYS = {"IO_SCHEDULER": "scheduler", "DIRTY_BYTES": "vm.dirty_bytes",
                "DIRTY_BG_BYTES": "vm.dirty_background_bytes"}  # fmt: skip
MAX_NOTES = 64


def read_saptune(src: Source) -> tuple[list[Tuner], list[str]]:
    text = src.text("etc/sysconfig/saptune")
    if text is None:
        return [], []
    config = parse_os_release(text)
    applied = config.get("NOTE_APPLY_ORDER", "").split()
    notes = applied or config.get("TUNE_FOR_NOTES", "").split()
    tuners, missing = [], []
    for note in [n for n in notes if NOTE_ID.fullmatch(n)][:MAX_NOTES]:
        sheet = src.first(path.format(note) for path in NOTE_SHEETS)
        if sheet is None:
            missing.append(f"saptune note {note} (its sheet)")
        found = _note_settings(parse_ini(sheet[1])) if sheet else {}
        override = src.text(f"etc/saptune/override/{note}")
        if override is not None:
            for name, value in _note_settings(parse_ini(override), keep_empty=True).items():
                if value:
                    found[name] = value
                else:
                    found.pop(name, None)
        tuners.append(Tuner(kind="saptune", name=f"note {note}", settings=found, active=bool(applied)))
    return tuners, missing


def _note_settings(sections: dict[str, dict[str, str]], keep_empty: bool = False) -> dict[str, str]:
    found = {}
    for key, raw in sections.get("block", {}).items():
        if key in BLOCK_KEYS and (raw or keep_empty):
            found[BLOCK_KEYS[key]] = setting_value(raw)
    for key, raw in sections.get("sysctl", {}).items():
        name = sysctl_setting(key)
        if name and (raw or keep_empty):
            found[name] = setting_value(raw)
    return found


def read_sapconf(src: Source) -> list[Tuner]:
    text = src.text("etc/sysconfig/sapconf")
    if text is None:
        return []
    config = parse_os_release(text)
    found = {name: setting_value(config[key]) for key, name in SAPCONF_KEYS.items() if config.get(key)}
    return [Tuner(kind="sapconf", name="/etc/sysconfig/sapconf", settings=found)]
