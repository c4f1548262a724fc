"""The reference site: pages generated from the KB, MkDocs hooks and offline charts."""
