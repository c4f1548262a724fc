"""What a host's bytes mean: ``reader.read_root`` reads a live root, a copied tree, a sosreport or a
supportconfig (or a tarball of one) into a :class:`~iosched.records.system.System`; each other module reads
one part of it (devices, the host, mounts, writeback, other tuners) or classifies it in the KB's words."""
