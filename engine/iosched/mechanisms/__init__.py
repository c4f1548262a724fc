"""One module per persistence mechanism: its file names, its reader (the files a host has, as tuners),
its writer (a plan's steps as its file) and its precedence: ``udev``, ``sysctld``, ``tuned`` (``ini`` is its
profiles' dialect), ``ktune`` (tuned 0.2, read only), ``cmdline``, ``fstab``."""
