"""What the tests and the benchmarks start and stop: throwaway PostgreSQL and Redis servers
(``dbservers``), ``smear serve`` as a child process (``serverproc``), and nginx with the block
docs/deploy.md shows (``nginx``).

Both sides import it from here: the tests through pytest's ``pythonpath`` (pyproject.toml), a
benchmark script by putting ``tests/`` on its path before its imports.
"""
