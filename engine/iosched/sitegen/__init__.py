"""The reference site: pages generated from the KB, MkDocs hooks and offline charts."""

GENERATED = "<!-- Generated from the KB by iosched.sitegen; edit kb/*.yaml, not this file. -->"
"""Below the title of every generated page."""
