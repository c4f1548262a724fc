discovered_interpreter_python: /usr/bin/python
