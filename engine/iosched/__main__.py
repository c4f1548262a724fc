"""The ``iosched`` process, as the console script and ``python -m iosched`` start it: the command line
(:func:`iosched.cli.main`) in a process that ends with it.

Importing this module imports nothing of the CLI: :func:`run` sets the cycle collector aside first, so that the
command's own imports do not pay for it either.
"""

import gc
import os
import sys


def run() -> int:
    """Run the command in ``sys.argv`` and end the process with its exit code.

    Python's cycle collector would walk the imported modules and the KB's records several times over during a
    short command, looking for cyclic garbage that a command hardly makes: what exists when the command starts
    is set aside from it (``gc.freeze``, which also keeps those pages shared with forked workers), and it runs
    less often while the command imports and works. At the end, :func:`_end` skips the interpreter's teardown,
    which would free every object of a process that is about to end anyway."""
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    from iosched.cli import main

    code = main()
    _end(code)
    gc.freeze()  # the usual ending: at least its last collection need not walk the command's objects
    return code


def _end(code: int) -> None:
    """End the process with ``code`` now, as the interpreter would end it, but without freeing its objects one by
    one: standard output and error are flushed and the ``atexit`` handlers run. Returns (to the usual ending)
    when that is not safe: a flush fails (the usual ending reports it), or another thread is still running."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        os._exit(120)  # what the interpreter exits with when its last flush fails
    os._exit(code)


if __name__ == "__main__":
    raise SystemExit(run())
