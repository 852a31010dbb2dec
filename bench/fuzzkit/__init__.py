"""The fuzz benchmark (``bench/fuzz.py``): malformed, wrong and hostile traffic against a real
``smear serve`` beside an honest table, and a flood of the work nobody at a table waits for.

Its modules, each importing only those before it: ``wire`` (the raw Engine.IO / Socket.IO
connection and the probe), ``texts`` (the wrong texts and the mutations), ``tables`` (the tables of
people and the honest table), ``probes`` (the messages about one table), ``checks``
(state_changes_from_refused: the check of those tables), ``flood`` (the flood of reviews, replays
and records), ``kinds`` (the kinds that send themselves), ``report`` (the server's log and the
report) and ``run`` (the :class:`~fuzzkit.run.Fuzzer` and the command line). A module that needs the
fuzzer names what it uses of it in a ``Fuzzing`` protocol of its own, and none imports ``run``.
"""
