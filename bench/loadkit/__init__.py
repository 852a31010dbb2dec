"""The load benchmark (``bench/load.py``): many tables of people played at once against ``smear serve``
over real WebSockets, the time from an action to its last view measured.

``run`` owns the benchmark: the server processes, the worker processes, the measured window, the
report and its closing lines. ``clients`` owns the client side each worker process runs (the people,
their tables, the timings), and imports nothing of ``run``.
"""
