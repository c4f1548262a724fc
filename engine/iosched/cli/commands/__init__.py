"""The commands: each module is the command of its name (``advise.py`` is ``iosched advise``) and has
``register(sub, common)``."""
