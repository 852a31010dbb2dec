"""What the tests and the benchmarks start and stop: throwaway PostgreSQL and Redis servers
(``dbservers``) and ``smear serve`` as a child process (``serverproc``).

Both sides import it from here: the tests through pytest's ``pythonpath`` (pyproject.toml), a
benchmark script by putting ``tests/`` on its path before its imports.
"""
