"""The collection hooks iosched ships: a sos_extras definition and a supportconfig plugin. Each runs iosched by
the interpreter that installs it (``@PYTHON@``), so it works from a virtual environment as from the system."""
