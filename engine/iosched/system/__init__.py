"""Real systems: reading live roots, captured trees, sosreports, supportconfigs and Ansible facts, and the files
that keep settings on them. Each persistence mechanism is one module that holds its file names, reads its files
into tuners, writes a plan's file and knows its precedence: ``udev``, ``sysctld``, ``tuned`` (and ``ktune``, tuned
0.2, read only), ``cmdline``, ``fstab``."""
