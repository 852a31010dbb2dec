"""Search for the bots: the rules replayed on int bitmasks inside numba, for speed.

The reference engine (``smear.state``, ``smear.dealing``, ``smear.legal``, ``smear.transitions``) is
the authority on every rule; this package plays the same rules much faster, for play-outs and
perfect-information search. Its modules:

- :mod:`~smear.search.tables`: a table's rules as one flat ``int64`` array, built from the engine's
  own tables, and the summary row of a played hand;
- :mod:`~smear.search.codes`: action codes and legal masks, and the engine actions they stand for;
- :mod:`~smear.search.masks`: the rules on bitmasks (legal cards, trick winner, scoring);
- :mod:`~smear.search.playouts`: whole hands played at random or replayed from given actions;
- :mod:`~smear.search.alphabeta` and :mod:`~smear.search.solver`: the card play solved with every
  card known;
- :mod:`~smear.search.checks`: the kernel replayed through the engine, for the tests and
  ``bench/kernel.py --verify``.

Only this package imports numba, and nothing outside the search bots imports it: ``import smear``
stays fast.
"""
