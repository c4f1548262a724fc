"""Reading what people paste when a disk is slow: iostat, sar, /proc snapshots, kernel hung-task reports.

Each module reads one format, as a pure function from text to a :class:`~iosched.symptoms.series.Reading`
(samples over time per device and for the host, plus what could not be read); :mod:`.detect` recognises the
format by content, :mod:`.observations` turns readings into observations and the facts the KB's causes compare.
"""
