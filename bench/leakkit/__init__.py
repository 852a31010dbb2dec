"""The leak benchmark (``bench/leaks.py``): bot matches over real Socket.IO against an in-process
server, every message and log line checked for a card its recipient may not see.

Its modules, each importing only those before it: ``audit`` (the checks of messages, shared with
``tests/server/test_leaks.py``), ``log`` (the checks of the server's log), ``plan`` (which match is
played with which settings), ``worker`` (one process's server, HTTP session, log audit and counts),
``client`` (the raw client connection), ``players`` (the people and one match played through) and
``run`` (the processes, the report and its closing lines).
"""
