"""The chaos benchmark (``bench/chaos.py``): ``smear serve`` killed with SIGKILL again and again
under live tables, faults injected beside the kills, and nothing acknowledged may be lost.

Its modules, each importing only those before it: ``plan`` (the timings, the tables planned, the move
a person chooses, the tally of what the clients saw), ``faults`` (the faults, installed in the server
processes by ``bench/chaosserver.py``), ``fleet`` (the server processes, their kills and restarts),
``state`` (what the clients share with the run: the kills, the fleet, the tally, the generation of
server lives), ``clients`` (the people, their links through the kills, one table each), ``faultplan``
(when each fault is injected), ``report`` (the figures), ``checks`` (the checks once the kills are
over) and ``run`` (the run itself and the command line).
"""
